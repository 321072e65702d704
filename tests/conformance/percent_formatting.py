# printf-style formatting as tutorials print their training loops.
import torch

running_loss = 2.718281828
for epoch, i in [(0, 1999), (1, 3999)]:
    print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 2000))

loss = torch.tensor(0.123456)
print('loss %.4f, as text %s' % (loss, loss))
print('step %d of %d (%d%%)' % (3, 10, 30))
print('%-8s|%8s|%08.3f|%+d|% d' % ('left', 'right', 3.14159, 5, 7))
print('%x %X %#x %o %e %g' % (255, 255, 255, 8, 12345.6789, 0.0001))
print('%(name)s has %(n)d parameters' % {'name': 'net', 'n': 1234})
print('%r and %s' % ('quoted', 'plain'))
print('%5.1f%%' % 99.44)
print('%c%c' % (104, 'i'))
print('%*d|%-*d|' % (5, 42, 4, 7))
fmt = 'epoch %d: %.2f'
print(fmt % (5, 0.5))


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f'Point({self.x}, {self.y})'

    def __str__(self):
        return f'({self.x}, {self.y})'


p = Point(1, 2)
print('str %s, repr %r' % (p, p))
print('in a list: %s' % ([p],))

for template, args in [
    ('%d %d', (1,)),
    ('%d', (1, 2)),
    ('%d', 'x'),
    ('%f', 'x'),
    ('%z', 1),
    ('%(missing)s', {'present': 1}),
]:
    try:
        print(template % args)
    except (TypeError, ValueError, KeyError) as e:
        print(type(e).__name__ + ':', e)
