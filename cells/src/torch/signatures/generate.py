"""The signature table of every torch binding the lab has, and the errors real torch raises for
wrong calls to them, generated from PyTorch 2.15 itself.

    python3 -m venv ~/torch-venv && ~/torch-venv/bin/pip install torch==2.15.0 pyyaml
    ~/torch-venv/bin/python cells/src/torch/signatures/generate.py

writes
  - cells/src/torch/signatures/table.txt: one entry per binding, each its PyTorch signatures.
    Native bindings (PyTorch's C++ argument parser) list the parser's own schema strings, in the
    parser's order, from torchgen (shipped in the wheel) for generated bindings and from
    libtorch_python.so for hand-written ones; `noarg` ones take no arguments (CPython's
    METH_NOARGS); Python ones (functions, classes' __init__, methods) are inspect.signature's.
  - tests/golden/argument_errors.json: calls that real torch refuses, each with its exception.
  - cells/src/torch/signatures/names.txt: every public name of the namespaces the lab binds
    in, so that the lab can tell "PyTorch has it, the lab does not yet" from a typo.

Binding a new function: add its name to BINDINGS below, run this script, implement it in
cells/src/torch/. The lab's tests fail while a table entry has no implementation or the other
way round. Tests read the committed files; they never import torch.
"""

import inspect
import json
import os
import re
import subprocess
import sys

import torch
import torch.nn.functional as F
import torchgen
from torchgen.gen import parse_native_yaml
from torchgen.packaged.autograd.gen_python_functions import (
    group_filter_overloads,
    group_overloads,
    is_py_linalg_function,
    is_py_nn_function,
    is_py_torch_function,
    is_py_variable_method,
    load_signatures,
    should_generate_py_binding,
)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))

# What the lab binds, by the namespace a learner reaches it through. `Tensor` holds the methods of
# tensors; `nn.Module`, `optim.Optimizer`, ... the methods of those objects.
BINDINGS = {
    "torch": """
        tensor zeros ones rand randn empty full arange manual_seed device no_grad enable_grad
        inference_mode is_grad_enabled matmul cat stack is_tensor randint linspace logspace eye
        as_tensor asarray heaviside
        isnan isinf isfinite randperm zeros_like ones_like empty_like full_like rand_like
        randn_like equal allclose where relu sigmoid tanh exp log sqrt abs sum mean std var
        flatten prod masked_fill gather index_select max maximum minimum min argmax softmax
        log_softmax clamp transpose permute unsqueeze squeeze reshape mm neg save load autocast
        Generator from_numpy get_default_dtype
        sin cos tan asin acos atan sinh cosh asinh acosh atanh arcsin arccos arctan arcsinh arccosh arctanh exp2 expm1 log2 log10 log1p erf erfc erfinv rsqrt reciprocal sign sgn floor ceil trunc fix round frac square negative absolute
        add sub subtract mul multiply div divide true_divide
        addmm bmm mv dot outer ger atan2 arctan2 hypot fmod fmax fmin copysign remainder floor_divide
        narrow split chunk tensor_split unbind movedim moveaxis swapaxes swapdims flip fliplr
        flipud roll rot90 tile repeat_interleave broadcast_to broadcast_tensors broadcast_shapes
        meshgrid unflatten diag diagonal diag_embed triu tril trace hstack vstack dstack
        column_stack row_stack concat concatenate ravel atleast_1d atleast_2d atleast_3d
        scatter scatter_add scatter_reduce index_add index_fill index_copy index_put
        masked_select masked_scatter take take_along_dim nonzero argwhere select
        amax amin logsumexp nansum nanmean count_nonzero std_mean var_mean argmin any all
        cumsum cumprod cummax cummin norm dist det logdet slogdet inverse cholesky qr svd
        pinverse cholesky_solve sort argsort msort topk kthvalue median nanmedian mode pow
        eq ne lt le gt ge less less_equal greater greater_equal not_equal clip clamp_min
        clamp_max lerp addcmul addcdiv xlogy nan_to_num logit logical_not logical_and logical_or
        logical_xor isclose signbit numel is_floating_point is_complex is_nonzero isposinf
        isneginf isreal rad2deg deg2rad float_power bitwise_and bitwise_or bitwise_xor
        bitwise_not bitwise_left_shift bitwise_right_shift
        einsum tensordot inner kron vdot chain_matmul matrix_power cross addmv addmv_ addr baddbmm
        set_grad_enabled is_anomaly_enabled is_anomaly_check_nan_enabled
        addbmm
        normal bernoulli multinomial poisson seed initial_seed get_rng_state set_rng_state
        randint_like
        bincount histc unique unique_consecutive searchsorted bucketize
        set_default_dtype get_default_device set_default_device set_printoptions
        promote_types result_type can_cast finfo iinfo Tensor
    """,
    "torch.autograd": "grad backward detect_anomaly set_detect_anomaly",
    "torch.autograd.functional": "jacobian",
    "torch.linalg": """
        det slogdet inv solve cholesky qr svd svdvals eigh eigvalsh pinv matrix_rank lstsq
        vector_norm matrix_norm norm diagonal matmul vecdot multi_dot matrix_power cross
    """,
    "Tensor": """
        to cuda cpu item tolist size dim numel sum mean std var flatten numpy any all get_device
        prod masked_fill gather index_select new_zeros new_ones new_full new_empty new_tensor max
        maximum minimum min argmax backward detach clone requires_grad_ retain_grad view reshape
        float double half bfloat16 long int short char byte bool add sub mul div matmul mm relu
        exp log sqrt abs sigmoid
        tanh pow t zero_ fill_ add_ mul_ sub_ div_ copy_ is_contiguous contiguous unsqueeze
        squeeze transpose permute expand softmax log_softmax is_pinned pin_memory data_ptr
        element_size type stride storage_offset neg clamp
        sin cos tan asin acos atan sinh cosh asinh acosh atanh arcsin arccos arctan arcsinh arccosh arctanh exp2 expm1 log2 log10 log1p erf erfc erfinv rsqrt reciprocal sign sgn floor ceil trunc fix round frac square negative absolute subtract multiply divide true_divide addmm bmm mv dot outer ger
        atan2 arctan2 hypot fmod fmax fmin copysign remainder floor_divide
        sin_ cos_ tan_ asin_ acos_ atan_ sinh_ cosh_ asinh_ acosh_ atanh_ arcsin_ arccos_ arctan_ arcsinh_ arccosh_ arctanh_ exp2_ expm1_ log2_ log10_ log1p_ erf_ erfc_ erfinv_ rsqrt_ reciprocal_ sign_ sgn_ floor_ ceil_ trunc_ fix_ round_ frac_ square_ negative_ absolute_ exp_ log_ sqrt_ abs_ neg_ relu_ sigmoid_ tanh_
        narrow split chunk tensor_split unbind movedim moveaxis swapaxes swapdims flip fliplr
        flipud roll rot90 repeat tile repeat_interleave expand_as view_as reshape_as broadcast_to
        unflatten unfold diag diagonal diag_embed triu tril triu_ tril_ trace ravel
        scatter scatter_ scatter_add scatter_add_ scatter_reduce scatter_reduce_ index_add
        index_add_ index_fill index_fill_ index_copy index_copy_ index_put index_put_
        masked_select masked_fill_ masked_scatter masked_scatter_ take take_along_dim nonzero
        argwhere select
        amax amin logsumexp nansum nanmean count_nonzero argmin cumsum cumsum_ cumprod cumprod_
        cummax cummin norm dist det logdet slogdet inverse cholesky cholesky_solve qr svd pinverse
        sort argsort msort topk kthvalue median nanmedian mode pow_
        eq ne lt le gt ge less less_equal greater greater_equal not_equal eq_ ne_ lt_ le_ gt_
        ge_ less_ less_equal_ greater_ greater_equal_ not_equal_ clamp_ clip clip_ clamp_min
        clamp_min_ clamp_max clamp_max_ lerp lerp_ addcmul addcmul_ addcdiv addcdiv_ xlogy
        xlogy_ nan_to_num nan_to_num_ logit logit_ logical_not logical_not_ logical_and
        logical_and_ logical_or logical_or_ logical_xor logical_xor_ isclose signbit nelement
        ndimension is_floating_point is_complex is_signed is_nonzero isposinf isneginf isreal
        isnan isinf isfinite rad2deg rad2deg_ deg2rad deg2rad_ float_power float_power_
        bitwise_and bitwise_and_ bitwise_or bitwise_or_ bitwise_xor bitwise_xor_ bitwise_not
        bitwise_not_ heaviside heaviside_ bitwise_left_shift bitwise_left_shift_ bitwise_right_shift
        bitwise_right_shift_ fmod_ remainder_ atan2_ arctan2_ floor_divide_ hypot_ copysign_
        inner kron vdot matrix_power cross addmm_ addmv addmv_ addr addr_ baddbmm baddbmm_
        addbmm addbmm_ detach_ register_hook
        uniform_ normal_ bernoulli_ bernoulli exponential_ cauchy_ log_normal_ geometric_
        random_ multinomial
        bincount histc unique unique_consecutive
    """,
    "torch.nn.functional": """
        relu sigmoid tanh softmax log_softmax mse_loss cross_entropy nll_loss
        binary_cross_entropy_with_logits linear dropout conv2d embedding layer_norm
    """,
    "torch.nn": """
        Module Linear ReLU Sigmoid Tanh Dropout Flatten Sequential ModuleList Identity Softmax
        LogSoftmax MSELoss CrossEntropyLoss NLLLoss BCEWithLogitsLoss Conv2d Embedding LayerNorm
        Parameter
    """,
    "torch.nn.Module": """
        parameters named_parameters buffers named_buffers children named_children modules
        named_modules register_buffer register_parameter add_module load_state_dict to cuda cpu
        float double half train eval zero_grad state_dict requires_grad_
    """,
    "torch.nn.ModuleList": "append extend",
    "torch.nn.Sequential": "append extend",
    "torch.nn.init": """
        kaiming_uniform_ kaiming_normal_ xavier_uniform_ xavier_normal_ uniform_ normal_
        constant_ zeros_ ones_ calculate_gain
    """,
    "torch.optim": "SGD Adam AdamW",
    "torch.optim.Optimizer": "step zero_grad state_dict load_state_dict",
    # Each optimizer defines its own `step`, which errors name (`SGD.step()`).
    "torch.optim.SGD": "step",
    "torch.optim.Adam": "step",
    "torch.optim.AdamW": "step",
    "torch.cuda": """
        is_available device_count current_device set_device memory_allocated memory_reserved
        max_memory_allocated max_memory_reserved reset_peak_memory_stats memory_summary
        synchronize empty_cache get_device_name manual_seed manual_seed_all Event
        is_initialized init is_bf16_supported is_tf32_supported get_device_properties
        get_device_capability mem_get_info memory_stats memory_stats_as_nested_dict
        set_sync_debug_mode get_sync_debug_mode
    """,
    "torch.cuda.Event": "record synchronize query wait elapsed_time",
    "torch.accelerator": """
        is_available current_accelerator device_count current_device_index set_device_index
        synchronize
    """,
    "torch.Generator": "manual_seed initial_seed get_state set_state seed",
    "torch.random": "manual_seed seed initial_seed get_rng_state set_rng_state fork_rng",
    "torch.amp": "autocast GradScaler",
    "torch.cuda.amp": "autocast GradScaler",
    "torch.amp.GradScaler": "scale step update unscale_ get_scale is_enabled",
    "torch.utils.data": "TensorDataset DataLoader DistributedSampler",
    "torch.utils.data.DistributedSampler": "set_epoch",
    "torch.distributed": """
        init_process_group destroy_process_group is_initialized is_available get_rank
        get_world_size all_reduce broadcast barrier
    """,
    "torch.multiprocessing": "spawn",
    "torch.nn.parallel": "DataParallel DistributedDataParallel",
    "torch.backends.mps": "is_available is_built",
    "torch.backends.cudnn": "is_available",
}

# Namespaces whose public names the lab knows (for "not in the lab yet").
KNOWN_NAMESPACES = {
    "torch": torch,
    "Tensor": torch.Tensor,
    "torch.nn": torch.nn,
    "torch.nn.functional": F,
    "torch.nn.init": torch.nn.init,
    "torch.optim": torch.optim,
    "torch.optim.lr_scheduler": torch.optim.lr_scheduler,
    "torch.cuda": torch.cuda,
    "torch.accelerator": torch.accelerator,
    "torch.utils.data": torch.utils.data,
    "torch.linalg": torch.linalg,
    "torch.fft": torch.fft,
    "torch.special": torch.special,
    "torch.autograd": torch.autograd,
    "torch.autograd.functional": torch.autograd.functional,
    "torch.amp": torch.amp,
    "torch.distributed": torch.distributed,
    "torch.nn.Module": torch.nn.Module,
    "torch.random": torch.random,
}


# Classes implemented in C++ whose constructor is one of PyTorch's argument parsers.
NATIVE_CLASSES = {"torch.device", "torch.Generator", "torch.finfo", "torch.iinfo", "torch.Tensor"}

# Classes whose parser is named otherwise: `torch.Tensor(...)` is the legacy constructor `new`.
PARSER_NAMES = {"torch.Tensor": "new"}


def resolve(namespace, name):
    """The Python object a learner reaches as `namespace.name`."""
    owner = torch.Tensor if namespace == "Tensor" else eval(namespace, {"torch": torch})
    return getattr(owner, name)


def torchgen_tables():
    """Native schemas by name: Tensor methods, torch functions, torch._C._nn functions."""
    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    natives = parse_native_yaml(
        os.path.join(base, "ATen/native/native_functions.yaml"),
        os.path.join(base, "ATen/native/tags.yaml"),
    ).native_functions
    natives = [f for f in natives if should_generate_py_binding(f)]
    deprecated = os.path.join(base, "autograd/deprecated.yaml")
    methods = load_signatures(natives, deprecated, method=True)
    functions = load_signatures(natives, deprecated, method=False)

    def table(pairs, pred):
        grouped = group_filter_overloads(pairs, pred)
        return {
            str(name): [o.signature.signature_str(symint=True) for o in group_overloads(v, symint=True)]
            for name, v in grouped.items()
        }

    return {
        "Tensor": table(methods, is_py_variable_method),
        "torch": table(functions, is_py_torch_function),
        "torch._C._nn": table(functions, is_py_nn_function),
        # Named `linalg_det` in the schemas (and so in errors), reached as `torch.linalg.det`.
        "torch._C._linalg": table(functions, is_py_linalg_function),
    }


def library_strings():
    """The schema strings compiled into libtorch_python.so (the hand-written bindings' parsers)."""
    path = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_python.so")
    out = subprocess.run(["strings", "-n", "3", path], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


SCHEMA = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\((.*)\)(\|deprecated|\|hidden)?$")


def manual_schemas(strings, name, is_method):
    """The hand-written parser's schemas for `name`: library strings shaped like schemas."""
    found = []
    for s in strings:
        if not s.startswith(name + "(") or not SCHEMA.match(s):
            continue
        inner = SCHEMA.match(s).group(1)
        if "invalid" in s or "'" in inner:
            continue
        takes_input = inner.startswith("Tensor input")
        if is_method and takes_input:
            continue
        if s not in found:
            found.append(s)
    # A function that shares its name with a method (`nonzero`) finds the method's schemas too:
    # the function's are those taking `input`.
    if not is_method and any(SCHEMA.match(s).group(1).startswith("Tensor input") for s in found):
        found = [s for s in found if SCHEMA.match(s).group(1).startswith("Tensor input")]
    return found


def first_param(schema):
    return SCHEMA.match(schema).group(1).split(", ")[0]


def pick_manual(schemas, shown):
    """Of the library strings named like a hand-written binding, those of its parser: the ones
    PyTorch shows, and hidden ones sharing their first parameter (`async=` forms)."""
    visible = [s for s in schemas if "|" not in s and display(s) in shown]
    visible.sort(key=lambda s: shown.index(display(s)))
    firsts = {first_param(s) for s in visible}
    hidden = [s for s in schemas if "|" in s and first_param(s) in firsts]
    return visible + hidden


def parser_order(schemas):
    """PythonArgParser checks deprecated signatures last (a stable partition)."""
    return [s for s in schemas if not s.endswith("|deprecated")] + [
        s for s in schemas if s.endswith("|deprecated")
    ]


TYPE_NAMES = {
    "Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int", "double": "float",
    "complex": "complex", "TensorList": "tuple of Tensors",
    "c10::List<::std::optional<Tensor>>": "tuple of Tensors", "IntArrayRef": "tuple of ints",
    "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
    "Generator": "torch.Generator", "bool": "bool", "Storage": "torch.Storage",
    "PyObject*": "object", "ScalarType": "torch.dtype", "Layout": "torch.layout",
    "MemoryFormat": "torch.memory_format", "QScheme": "torch.qscheme", "Device": "torch.device",
    "Stream": "torch.Stream", "std::string": "str", "c10::string_view": "str",
    "std::string_view": "str", "Dimname": "name", "DimnameList": "tuple of names",
    "ScalarList": "tuple of Scalars", "DispatchKeySet": "DispatchKeySet",
}


def display(schema):
    """FunctionSignature::toString: how PyTorch lists a signature in its errors."""
    inner = SCHEMA.match(schema).group(1)
    parts, keyword = [], False
    for param in inner.split(", ") if inner else []:
        if param == "*":
            keyword = True
            continue
        kind, rest = param.split(" ", 1)
        kind = re.sub(r"\[.*\]", "", kind.rstrip("?")).rstrip("?")
        text = TYPE_NAMES[kind] + " " + rest.split("=", 1)[0]
        if "=" in rest:
            text += " = " + rest.split("=", 1)[1]
        if keyword and not any(p.startswith("*, ") for p in parts):
            text = "*, " + text
        parts.append(text)
    return "(" + ", ".join(parts) + ")"


def shown_signatures(fn):
    """The signatures PyTorch lists when no overload takes 40 arguments, or None."""
    try:
        fn(*[object()] * 40)
    except TypeError as e:
        text = str(e)
        if "expected one of:\n" in text:
            return [line[3:] for line in text.split("expected one of:\n", 1)[1].splitlines() if line.startswith(" * ")]
        if "but expected (" in text:
            return [text.split("but expected ", 1)[1]]
    except Exception:
        pass
    return None


def python_signatures(obj, name):
    """A Python-level binding's parameters, as `qualname(param, param=default, *, kw=default)`.

    CPython names a function by its qualified name in its argument errors (`Linear.__init__`,
    `Module.parameters`) and counts `self` among the positional arguments, so both are kept. A
    class is called as `__new__` then `__init__`: each one it defines in Python is listed, in
    that order (`nn.Parameter` has only `__new__`, `torch.no_grad` both)."""
    # `torch.unique` and the like pick one of two functions by a flag (`boolean_dispatch`);
    # both take the same parameters, and the one for the default flag (itself dispatched, for
    # `unique`) names the errors.
    while obj in torch._jit_internal.boolean_dispatched:
        obj = torch._jit_internal.boolean_dispatched[obj]["if_false"]
    if not inspect.isclass(obj):
        return [python_signature(obj, getattr(obj, "__qualname__", name))]
    found = []
    for slot, base in (("__new__", object.__new__), ("__init__", object.__init__)):
        method = getattr(obj, slot)
        if method is not base and inspect.isfunction(inspect.unwrap(method)):
            found.append(python_signature(method, method.__qualname__))
    return found or [f"{obj.__name__}()"]


def python_signature(target, qualname):
    params = list(inspect.signature(target).parameters.values())
    parts, star = [], False
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            parts.append("*" + p.name)
            star = True
            continue
        if p.kind == p.VAR_KEYWORD:
            parts.append("**" + p.name)
            continue
        if p.kind == p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = p.name
        if p.default is not p.empty:
            text += "=" + default_repr(p.default)
        parts.append(text)
        if p.kind == p.POSITIONAL_ONLY and (
            params.index(p) + 1 == len(params) or params[params.index(p) + 1].kind != p.POSITIONAL_ONLY
        ):
            parts.append("/")
    return f"{qualname}({', '.join(parts)})"


def default_repr(value):
    if isinstance(value, torch.dtype):
        return str(value)
    if isinstance(value, (bool, int, float, str, type(None), tuple)):
        return repr(value)
    if inspect.isclass(value) or callable(value):
        return "<" + getattr(value, "__qualname__", type(value).__name__) + ">"
    return "<" + type(value).__name__ + ">"


def takes_no_arguments(fn):
    """How CPython names a METH_NOARGS builtin in its errors (`TensorBase.item`), or None."""
    try:
        fn(1)
    except TypeError as e:
        if "() takes no arguments" in str(e):
            return str(e).split("() takes no arguments")[0]
    except Exception:
        pass
    return None


def takes_one_argument(fn):
    """How CPython names a METH_O builtin (exactly one positional argument), or None."""
    try:
        fn()
    except TypeError as e:
        if "() takes exactly one argument" in str(e):
            return str(e).split("() takes exactly one argument")[0]
    except Exception:
        pass
    return None


def entries():
    gen = torchgen_tables()
    strings = library_strings()
    sample = torch.ones(2, 3)
    out = []
    for namespace, names in BINDINGS.items():
        for name in names.split():
            obj = resolve(namespace, name)
            key = f"{namespace}.{name}"
            native = type(obj).__name__ in ("builtin_function_or_method", "method_descriptor")
            instance = {"Tensor": sample, "torch.Generator": torch.Generator()}.get(namespace)
            # Called as learners call it (`t.item(1)`): CPython names the method after the class
            # that defines it then (`TensorBase.item`), not after the instance's.
            bound = (lambda *a: eval(f"o.{name}({', '.join(map(repr, a))})", {"o": instance})) if instance is not None else obj
            shown_name = takes_no_arguments(bound) if native else None
            if shown_name:
                out.append(("noarg", key, [f"{shown_name}()"]))
                continue
            shown_name = takes_one_argument(bound) if native else None
            if shown_name:
                out.append(("onearg", key, [f"{shown_name}(arg)"]))
                continue
            if namespace == "Tensor" and native:
                schemas = gen["Tensor"].get(name) or manual_schemas(strings, name, True)
                check = getattr(instance, name)
            elif native:
                module = getattr(obj, "__module__", None)
                if module == "torch._C._linalg":
                    schemas = gen["torch._C._linalg"].get("linalg_" + name) or gen["torch._C._linalg"].get(name)
                else:
                    table = gen["torch._C._nn"] if module == "torch._C._nn" or namespace == "torch.nn.functional" else gen["torch"]
                    schemas = table.get(name) or manual_schemas(strings, name, False)
                check = obj
            elif key in NATIVE_CLASSES:
                schemas = manual_schemas(strings, PARSER_NAMES.get(key, name), False)
                check = obj
            else:
                out.append(("python", key, python_signatures(obj, name)))
                continue
            if not schemas:
                sys.exit(f"no schema found for {key}")
            shown = shown_signatures(check)
            generated = gen["Tensor" if namespace == "Tensor" else "torch"]
            if namespace == "torch.linalg":
                generated = {name: None}
            if shown is not None and name not in generated:
                schemas = pick_manual(schemas, shown)
            schemas = parser_order(schemas)
            expected = [display(s) for s in schemas if "|" not in s]
            if shown is not None and shown != expected:
                sys.exit(f"{key}: the schemas {schemas} do not show as PyTorch shows them: {shown}")
            out.append(("native", key, schemas))
    return out


def write_table(rows):
    lines = [
        "# The PyTorch 2.15 signatures of every torch binding of the lab, generated by generate.py.",
        "# Do not edit: add a name to BINDINGS there and run it again.",
    ]
    for kind, key, signatures in rows:
        namespace, name = key.rsplit(".", 1)
        obj = resolve(namespace, name)
        # A class also carries its qualified name, as its repr and errors show it.
        if inspect.isclass(obj):
            lines.append(f"@{kind} {key} class {obj.__module__}.{obj.__qualname__}")
        else:
            lines.append(f"@{kind} {key}")
        lines.extend(signatures)
    with open(os.path.join(HERE, "table.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def write_names():
    lines = ["# Public names of PyTorch 2.15's namespaces (generated by generate.py)."]
    for namespace, owner in KNOWN_NAMESPACES.items():
        names = sorted(n for n in dir(owner) if not n.startswith("_"))
        lines.append(f"@{namespace}")
        lines.append(" ".join(names))
    with open(os.path.join(HERE, "names.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    rows = entries()
    write_table(rows)
    write_names()
    import errors  # noqa: E402  (beside this file: the wrong calls, from the same table)

    errors.write(rows, os.path.join(ROOT, "tests", "golden", "argument_errors.json"))
    print(f"{len(rows)} bindings")
