n = 0
while True:
    try:
        n += 1
    except:
        pass
