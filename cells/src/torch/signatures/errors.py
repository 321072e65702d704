"""Wrong calls to every binding of the signature table, and what real torch raises for each:
unknown keywords, too many or missing arguments, an argument of the wrong type by position and
by keyword, None where a value is required. Only calls that torch refuses while binding their
arguments (a TypeError, or the ValueError of an int past 64 bits) are kept: what a kernel says
about values is the engine's business, tested elsewhere. Run by generate.py.
"""

import json
import re

import torch
import torch.nn as nn
import torch.nn.functional as F

# What every call runs after (the lab's test runs the same lines first).
SETUP = """import torch
import torch.nn as nn
import torch.nn.functional as F
t = torch.ones(2, 3)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator()
"""

# How a call reaches a binding of each namespace.
RECEIVERS = {
    "torch": "torch",
    "Tensor": "t",
    "torch.nn.functional": "F",
    "torch.nn": "nn",
    "torch.nn.Module": "model",
    "torch.nn.ModuleList": "nn.ModuleList()",
    "torch.nn.Sequential": "nn.Sequential()",
    "torch.optim.SGD": "opt",
    "torch.optim.Adam": "torch.optim.Adam(model.parameters())",
    "torch.optim.AdamW": "torch.optim.AdamW(model.parameters())",
    "torch.nn.init": "nn.init",
    "torch.optim": "torch.optim",
    "torch.optim.Optimizer": "opt",
    "torch.cuda": "torch.cuda",
    "torch.cuda.Event": "torch.cuda.Event()",
    "torch.Generator": "g",
    "torch.amp": "torch.amp",
    "torch.cuda.amp": "torch.cuda.amp",
    "torch.amp.GradScaler": None,
    "torch.utils.data": "torch.utils.data",
    "torch.utils.data.DistributedSampler": None,
    "torch.distributed": "torch.distributed",
    "torch.multiprocessing": "torch.multiprocessing",
    "torch.nn.parallel": "nn.parallel",
    "torch.backends.mps": "torch.backends.mps",
    "torch.backends.cudnn": "torch.backends.cudnn",
}

GOOD = {
    "Tensor": "t", "Tensor?": "t", "Scalar": "1", "int64_t": "1", "SymInt": "1", "double": "1.0",
    "bool": "True", "IntArrayRef": "(1,)", "SymIntArrayRef": "(1,)", "TensorList": "[t, t]",
    "ScalarType": "torch.float32", "Device": "'cpu'", "Layout": "torch.strided",
    "MemoryFormat": "torch.contiguous_format", "Generator": "g", "PyObject*": "[1.0]",
    "c10::string_view": "'none'", "std::string_view": "'cpu'", "ArrayRef<double>": "[1.0]",
}


def base_type(kind):
    return re.sub(r"\[.*\]", "", kind.rstrip("?")).rstrip("?")


def params(schema):
    inner = re.match(r"^[^(]*\((.*)\)", schema).group(1)
    out, keyword = [], False
    for p in inner.split(", ") if inner else []:
        if p == "*":
            keyword = True
            continue
        kind, rest = p.split(" ", 1)
        name, _, default = rest.partition("=")
        out.append({"type": base_type(kind), "name": name, "optional": bool(_), "none": kind.endswith("?") or default == "None", "keyword": keyword})
    return out


def bad_value(kind):
    if kind == "PyObject*":
        return None
    if kind in ("c10::string_view", "std::string_view"):
        return "1"
    return "'x'"


def cases_for(kind, key, signatures):
    namespace, name = key.rsplit(".", 1)
    receiver = RECEIVERS.get(namespace)
    if receiver is None:
        return []
    call = f"{receiver}.{name}"
    if kind == "noarg":
        return [f"{call}(1)", f"{call}(x=1)"]
    if kind == "onearg":
        return [f"{call}()", f"{call}(1, 2)", f"{call}(x=1)"]
    if kind == "python":
        return python_cases(call, signatures[0])
    calls = [f"{call}(bogus=1)"]
    for schema in signatures:
        if "|" in schema:
            continue
        ps = params(schema)
        positional = [p for p in ps if not p["keyword"]]
        required = [GOOD.get(p["type"], "1") for p in positional if not p["optional"]]
        calls.append(f"{call}({', '.join(required + ['bogus=1'])})")
        calls.append(f"{call}({', '.join(['1'] * (len(positional) + 1))})")
        good = [GOOD.get(p["type"], "1") for p in positional]
        for i, p in enumerate(positional):
            bad = bad_value(p["type"])
            if bad is not None:
                calls.append(f"{call}({', '.join(good[:i] + [bad])})")
            if not p["none"]:
                calls.append(f"{call}({', '.join(good[:i] + ['None'])})")
        for p in ps:
            bad = bad_value(p["type"])
            if bad is not None and p["type"] != "Tensor":
                calls.append(f"{call}({', '.join(required + [p['name'] + '=' + bad])})")
    return calls


def python_cases(call, signature):
    inner = signature[signature.index("(") + 1 : -1]
    parts = [p for p in inner.split(", ") if p] if inner else []
    named = [p for p in parts if p not in ("*", "/") and not p.startswith("*")]
    positional = []
    for p in parts:
        if p == "*" or p.startswith("*"):
            break
        if p != "/":
            positional.append(p)
    required = ["1" for p in positional if "=" not in p]
    calls = [f"{call}(bogus=1)", f"{call}({', '.join(required + ['bogus=1'])})"]
    if not any(p.startswith("*") and p != "*" and not p.startswith("**") for p in parts):
        # Falsy values: a function that picks its body by a flag (`torch.unique`'s
        # boolean_dispatch) then names itself as its signature does.
        calls.append(f"{call}({', '.join(['0'] * (len(positional) + 1))})")
    if required:
        calls.append(f"{call}()")
    return calls


def outcome(code):
    env = {}
    exec(SETUP, env)
    try:
        exec(code, env)
    except TypeError as e:
        return "TypeError", normalise(str(e))
    except ValueError as e:
        if "Overflow" in str(e):
            return "ValueError", normalise(str(e))
    except Exception:
        pass
    return None


def normalise(message):
    """PyTorch appends a C++ backtrace to some messages; the lab does not have one to show."""
    if "\nException raised from" in message:
        head = message.split("\nException raised from", 1)[0]
        return head + ('"' if message.rstrip().endswith('"') else "")
    return message


def is_binding_error(kind, message):
    """Whether torch refused the call while binding its arguments (not in a kernel or body)."""
    patterns = [
        "received an invalid combination of arguments",
        "got an unexpected keyword argument",
        "positional argument",
        "takes no arguments",
        "takes no keyword arguments",
        "got multiple values for argument",
        "must be",
        "failed to unpack",
        "Overflow when unpacking",
    ]
    return any(p in message for p in patterns)


def write(rows, path):
    seen, cases = set(), []
    for kind, key, signatures in rows:
        for code in cases_for(kind, key, signatures):
            if code in seen:
                continue
            seen.add(code)
            result = outcome(code)
            if result is None or not is_binding_error(kind, result[1]):
                continue
            cases.append({"binding": key, "code": code, "error": f"{result[0]}: {result[1]}"})
    with open(path, "w") as f:
        json.dump({"setup": SETUP, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} wrong calls")
