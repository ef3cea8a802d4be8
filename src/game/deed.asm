; deed.asm - being written
