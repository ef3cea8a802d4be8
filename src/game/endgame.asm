; endgame.asm - (being written)
endgame_run: ret
