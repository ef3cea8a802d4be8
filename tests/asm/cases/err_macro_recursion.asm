; A macro that expands itself without end.
        macro forever, n
        db n
        forever n+1
        endm
        org 0
        forever 0
