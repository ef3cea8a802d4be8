; owners.asm - being written
