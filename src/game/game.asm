; game.asm - (being written)
game_run: call keys_wait
 ret
