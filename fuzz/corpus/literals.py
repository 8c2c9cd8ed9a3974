x = 0x_1F + 0o17 + 0b1_01 + 1_000 + 1.5e-3 + .5 + 1. - 9223372036854775807
s = r"\d" u"\x41\u00e9\101" '''tri
ple''' "a\
b"
y = a if b else c; z = not a == b < c is not d
t = x[1:2:3, ::2, None, ...]
d = {(0,): {1, 2}, "k": [3,]}
a, (b, c) = f(-9223372036854775808) if False else g(k=1,)
