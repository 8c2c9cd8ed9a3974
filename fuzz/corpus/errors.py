if x:
    y = "unterminated
class K: pass
x = lambda: 1
f(**kw)
z = [i for i in y]
q = $
