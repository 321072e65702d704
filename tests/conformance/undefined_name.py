# Python's own errors keep Python's wording.
def area(r):
    return 3.14 * r * radius


print("start")
print(area(2))
