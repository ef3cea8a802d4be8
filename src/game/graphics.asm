; graphics.asm - (being written)
graphics_glyphs: ds (CH_GRAPHICS_END - 0x80) * 8
