; auction.asm - being written
