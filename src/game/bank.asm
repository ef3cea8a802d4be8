; bank.asm - being written
