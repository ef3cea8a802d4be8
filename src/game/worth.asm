; worth.asm - being written
