; jail.asm - being written
