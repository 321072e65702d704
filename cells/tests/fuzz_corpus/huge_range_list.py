xs = list(range(10**12))
