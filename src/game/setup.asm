; setup.asm - (being written)
setup_run: ret
