"""The closed loop (history -> request -> import -> history) and the JSON diff it compares with."""
