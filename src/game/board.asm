; board.asm - (being written)
