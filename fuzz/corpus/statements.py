def f(a, b: int = 1, c=2,) -> None:
	if a: return
	while b:
		b -= 1; continue
	else:
		pass
	for i in range(3): del x[i]
	assert a, "msg"
	global g
import os.path as p, sys
from ..pkg import (a as b, c,)
x = 1 + \
  2
y = (1,
  2)  # comment
