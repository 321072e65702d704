total = 0
for i in range(10000):
    total += i * 3 % 7
    if total > 1000000:
        total -= 1000000
