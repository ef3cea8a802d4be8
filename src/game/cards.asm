; cards.asm - being written
