; rent.asm - being written
