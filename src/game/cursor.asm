; cursor.asm - being written
