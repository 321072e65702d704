# os.environ as a mapping: set, read, test, delete.
import os

os.environ["LAB_MODE"] = "test"
print(os.environ["LAB_MODE"], os.environ.get("LAB_MODE"), "LAB_MODE" in os.environ)
print(os.environ.get("LAB_NOT_SET"), os.environ.get("LAB_NOT_SET", "fallback"))
del os.environ["LAB_MODE"]
print("LAB_MODE" in os.environ)
try:
    os.environ["LAB_MODE"]
except KeyError as e:
    print("KeyError", e)
