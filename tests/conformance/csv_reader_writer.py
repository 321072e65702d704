# csv as training scripts use it: writer and reader round trips, quoting rules, dialect
# options, DictWriter/DictReader with missing and extra fields, and quoted fields over lines.
import csv
import io

rows = [["epoch", "loss", "note"], [1, 0.5, "ok"], [2, 0.25, "has, comma"], [3, None, 'say "hi"'],
        [4, 1e-05, "multi\nline"], [5, True, ""]]
buf = io.StringIO()
w = csv.writer(buf)
for r in rows:
    w.writerow(r)
w.writerow([""])
w.writerow([])
text = buf.getvalue()
print(repr(text))
back = list(csv.reader(io.StringIO(text, newline="")))
print(back)
print(list(csv.reader(["a, b,c", ' "q" ,x'], skipinitialspace=True)), list(csv.reader(["a;b;'c;d'"], delimiter=";", quotechar="'")))
out = io.StringIO()
csv.writer(out, quoting=csv.QUOTE_ALL).writerow([1, "a", None])
csv.writer(out, quoting=csv.QUOTE_NONNUMERIC).writerow([1, "a", 2.5])
csv.writer(out, delimiter="\t", lineterminator="\n").writerow(["x y", "z\tw"])
csv.writer(out, quoting=csv.QUOTE_NONE, escapechar="\\").writerow(["a,b", "c"])
print(repr(out.getvalue()))
print(list(csv.reader(['1,"a",2.5'], quoting=csv.QUOTE_NONNUMERIC)))
print(list(csv.reader(io.StringIO("a\tb\n1\t2\n"), dialect="excel-tab")), csv.list_dialects()[:2])

table = io.StringIO()
dw = csv.DictWriter(table, fieldnames=["name", "acc", "lr"], restval="-")
dw.writeheader()
dw.writerows([{"name": "resnet", "acc": 0.91, "lr": 0.1}, {"name": "vit", "acc": 0.88}])
print(repr(table.getvalue()))
try:
    dw.writerow({"name": "x", "epochs": 3})
except ValueError as e:
    print("ValueError:", e)
table.seek(0)
reader = csv.DictReader(table)
print(reader.fieldnames, [dict(r) for r in reader], reader.line_num)
short = csv.DictReader(io.StringIO("a,b,c\n1,2\n1,2,3,4\n\n5,6,7\n"), restval="?", restkey="extra")
print([r for r in short])
named = csv.DictReader(["1,2", "3,4"], fieldnames=["x", "y"])
print(list(named))
try:
    csv.writer(io.StringIO(), bogus=1)
except TypeError as e:
    print("TypeError:", e)
try:
    csv.writer(io.StringIO(), quoting=csv.QUOTE_NONE).writerow(["a,b"])
except csv.Error as e:
    print("csv.Error:", e)
print(list(csv.reader(io.StringIO('"unclosed'))), list(csv.reader(io.StringIO('a,"b\nc'))))
try:
    list(csv.reader(io.StringIO('"x'), strict=True))
except csv.Error as e:
    print("csv.Error:", e)
