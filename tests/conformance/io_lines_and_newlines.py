# Reading a file line by line, StringIO's newline translation, and indexing that must not copy.
import io

with open("numbers.txt", "w") as f:
    for i in range(5000):
        f.write(f"{i} {i * i}\n")

total = 0
count = 0
with open("numbers.txt") as f:
    for line in f:
        a, b = line.split()
        total += int(b)
        count += 1
print(count, total)

with open("numbers.txt") as f:
    print(repr(f.readline()), repr(f.readline(3)), repr(f.readline()))
    print(len(f.readlines()))

for newline in [None, "", "\n", "\r\n", "\r"]:
    s = io.StringIO("a\nb\r\nc\rd\n\ne", newline=newline)
    print(repr(newline), [s.readline() for _ in range(7)])
    s = io.StringIO(newline=newline)
    print(s.write("x\ny\r\n"), repr(s.getvalue()))

for bad in ["x", 5]:
    try:
        io.StringIO(newline=bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

words = [str(i) for i in range(3000)]
print(sum(len(words[i]) for i in range(len(words))), words[-1], words[-3000])
letters = "abcdefghij" * 300
print("".join(letters[i] for i in range(0, len(letters), 97)))
for container in [words, tuple(words), letters, "é"]:
    try:
        container[len(container)]
    except IndexError as e:
        print(e)
