"""The game's message lines read as one text: ``Session.message()`` / ``in_message`` and the
scripts' ``expect "..."`` / ``wait for "..."`` across the lines' breaks (msg.asm's msg_print
wraps at words: a ``£`` and its amount are one word, never split)."""

from __future__ import annotations

import pytest

TEXT_AT = 0x5B10   # the printer buffer: free RAM outside the game for the message's text


def _show(rig, text: str, pounds: int | None = None) -> None:
    """The game prints ``text`` with msg_show, then ``£pounds`` with msg_money."""
    raw = text.replace("£", "\x60").encode("latin-1") + b"\0"
    rig.machine.memory[TEXT_AT:TEXT_AT + len(raw)] = raw
    rig.call("msg_show", hl=TEXT_AT)
    if pounds is not None:
        rig.call("msg_money", hl=pounds)


def test_a_pound_sign_at_a_line_end_goes_with_its_amount(rig):
    # 31 characters, then "£" at the last column: it goes to the next line with its amount.
    _show(rig, "2 BOB pays the rent of Mayfair ", 2000)
    rows = rig.message_rows()
    assert rows[0] == "2 BOB pays the rent of Mayfair" and rows[1].startswith("£2000"), rows
    assert rig.message() == "2 BOB pays the rent of Mayfair £2000"
    assert rig.in_message("Mayfair £2000")
    assert rig.find("£2000") == (22, 0)       # the next line starts with it


def test_words_wrapped_to_the_next_line_read_with_one_space(rig):
    _show(rig, "Whitechapel Road is mortgaged: no rent is due to 1 ANNE this time.")
    rows = rig.message_rows()
    assert len([r for r in rows if r]) == 3 or len([r for r in rows if r]) == 2
    assert rig.message() == "Whitechapel Road is mortgaged: no rent is due to 1 ANNE this time."
    assert rig.in_message("no rent is due to 1 ANNE this time")
    assert not rig.in_message("no rent is due to 2 BOB")


def test_scripts_expect_and_wait_for_wrapped_text(rig, tmp_path):
    from zxmonopoly.harness.script import Step, run_step

    _show(rig, "2 BOB pays the rent of Mayfair ", 2000)
    run_step(rig, Step("t", 1, "", "expect_text", ("rent of Mayfair £2000", None)))
    run_step(rig, Step("t", 2, "", "wait_text", ("pays the rent of Mayfair £2000", 5)))
    with pytest.raises(AssertionError, match="expected 'Mayfair £200 '"):
        run_step(rig, Step("t", 3, "", "expect_text", ("Mayfair £200 ", None)))
