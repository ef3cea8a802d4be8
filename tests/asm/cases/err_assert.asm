; ASSERT reports its message, or the expression, when false.
        org 0
table:  ds 10
        assert $-table == 10, "table size"
        assert $-table == 12, "table must be 12 bytes"
        assert $ < 5
