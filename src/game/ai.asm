; ai.asm - being written
