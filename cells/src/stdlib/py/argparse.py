"""argparse, as the lab has it: `ArgumentParser` with positional and optional arguments, the
actions scripts use (store, store_const, store_true/false, append, append_const, extend, count,
help, version, BooleanOptionalAction), `type`, `choices`, `nargs`, `default`, `required`,
`dest`, `metavar`, prefixes of long options, argument groups, mutually exclusive groups,
`set_defaults`, `parse_known_args`, and CPython's usage, help and error texts. A cell has no
command line: `parse_args()` reads `sys.argv[1:]`, which is empty, so scripts get their
defaults, and `parse_args([...])` reads the list it is given. Errors print the usage and
`prog: error: ...` to stderr and raise `SystemExit(2)`, as CPython does."""

import sys

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
REMAINDER = "..."


class Namespace:
    def __init__(self, **kwargs):
        for name in kwargs:
            setattr(self, name, kwargs[name])

    def __repr__(self):
        shown = []
        star = {}
        for name, value in vars(self).items():
            if name.isidentifier():
                shown.append(f"{name}={value!r}")
            else:
                star[name] = value
        if star:
            shown.append(f"**{star!r}")
        return f"Namespace({', '.join(shown)})"

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in vars(self)


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = _argument_name(argument)
        self.message = message
        super().__init__(message)

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return f"argument {self.argument_name}: {self.message}"


class ArgumentTypeError(Exception):
    pass


def _argument_name(action):
    if action is None:
        return None
    if action.option_strings:
        return "/".join(action.option_strings)
    if action.metavar not in (None, SUPPRESS):
        return action.metavar
    if action.dest not in (None, SUPPRESS):
        return action.dest
    return None


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None,
                 choices=None, required=False, help=None, metavar=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar

    def __repr__(self):
        fields = ["option_strings", "dest", "nargs", "const", "default", "type", "choices",
                  "required", "help", "metavar"]
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{type(self).__name__}({shown})"

    def format_usage(self):
        return self.option_strings[0]

    def __call__(self, parser, namespace, values, option_string=None):
        raise NotImplementedError(".__call__() not defined")


class _StoreAction(Action):
    def __init__(self, option_strings, dest, nargs=None, **kwargs):
        if nargs == 0:
            raise ValueError("nargs for store actions must be != 0; if you have nothing to "
                             "store, actions such as store true or store const may be more "
                             "appropriate")
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


class _StoreConstAction(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False,
                 help=None, metavar=None):
        super().__init__(option_strings, dest, nargs=0, const=const, default=default,
                         required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.const)


class _StoreTrueAction(_StoreConstAction):
    def __init__(self, option_strings, dest, default=False, required=False, help=None):
        super().__init__(option_strings, dest, const=True, default=default, required=required,
                         help=help)


class _StoreFalseAction(_StoreConstAction):
    def __init__(self, option_strings, dest, default=True, required=False, help=None):
        super().__init__(option_strings, dest, const=False, default=default, required=required,
                         help=help)


class _AppendAction(Action):
    def __call__(self, parser, namespace, values, option_string=None):
        items = getattr(namespace, self.dest, None)
        items = [] if items is None else list(items)
        items.append(values)
        setattr(namespace, self.dest, items)


class _AppendConstAction(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False,
                 help=None, metavar=None):
        super().__init__(option_strings, dest, nargs=0, const=const, default=default,
                         required=required, help=help, metavar=metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        items = getattr(namespace, self.dest, None)
        items = [] if items is None else list(items)
        items.append(self.const)
        setattr(namespace, self.dest, items)


class _ExtendAction(_AppendAction):
    def __call__(self, parser, namespace, values, option_string=None):
        items = getattr(namespace, self.dest, None)
        items = [] if items is None else list(items)
        items.extend(values)
        setattr(namespace, self.dest, items)


class _CountAction(Action):
    def __init__(self, option_strings, dest, default=None, required=False, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, required=required,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        count = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, (0 if count is None else count) + 1)


class _HelpAction(Action):
    def __init__(self, option_strings, dest=SUPPRESS, default=SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.print_help()
        parser.exit()


class _VersionAction(Action):
    def __init__(self, option_strings, version=None, dest=SUPPRESS, default=SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)
        self.version = version

    def __call__(self, parser, namespace, values, option_string=None):
        text = self.version.replace("%(prog)s", parser.prog)
        sys.stdout.write(text + "\n")
        parser.exit()


class BooleanOptionalAction(Action):
    def __init__(self, option_strings, dest, default=None, required=False, help=None,
                 metavar=None):
        strings = []
        for option in option_strings:
            strings.append(option)
            if option.startswith("--"):
                strings.append("--no-" + option[2:])
        super().__init__(strings, dest, nargs=0, default=default, required=required,
                         help=help, metavar=metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in self.option_strings:
            setattr(namespace, self.dest, not option_string.startswith("--no-"))

    def format_usage(self):
        return " | ".join(self.option_strings)


_ACTIONS = {
    None: _StoreAction,
    "store": _StoreAction,
    "store_const": _StoreConstAction,
    "store_true": _StoreTrueAction,
    "store_false": _StoreFalseAction,
    "append": _AppendAction,
    "append_const": _AppendConstAction,
    "extend": _ExtendAction,
    "count": _CountAction,
    "help": _HelpAction,
    "version": _VersionAction,
}


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self._prog = prog
        self._max_help_position = max_help_position
        self._width = (width or 80) - 2


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class MetavarTypeHelpFormatter(HelpFormatter):
    pass


def _metavar(action, default):
    if action.metavar is not None:
        result = action.metavar
    elif action.choices is not None:
        result = "{" + ",".join(str(c) for c in action.choices) + "}"
    else:
        result = default
    return result


def _format_args(action, default):
    metavar = _metavar(action, default)
    if isinstance(metavar, tuple):
        parts = list(metavar)
    else:
        parts = None

    def one(i=0):
        return parts[i] if parts else metavar

    nargs = action.nargs
    if nargs is None:
        return one()
    if nargs == OPTIONAL:
        return f"[{one()}]"
    if nargs == ZERO_OR_MORE:
        if parts and len(parts) == 2:
            return f"[{parts[0]} [{parts[1]} ...]]"
        return f"[{one()} ...]"
    if nargs == ONE_OR_MORE:
        if parts and len(parts) == 2:
            return f"{parts[0]} [{parts[1]} ...]"
        return f"{one()} [{one()} ...]"
    if nargs == REMAINDER:
        return "..."
    if nargs == 0:
        return ""
    return " ".join(one(i) if parts else metavar for i in range(nargs))


def _wrap(text, width):
    words = text.split()
    lines = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


class _ArgumentGroup:
    def __init__(self, container, title=None, description=None):
        self._container = container
        self.title = title
        self.description = description
        self._group_actions = []

    def add_argument(self, *args, **kwargs):
        action = self._container.add_argument(*args, **kwargs)
        self._group_actions.append(action)
        self._container._move_to_group(action, self)
        return action

    def add_argument_group(self, *args, **kwargs):
        return self._container.add_argument_group(*args, **kwargs)

    def add_mutually_exclusive_group(self, required=False):
        return self._container.add_mutually_exclusive_group(required=required)

    def set_defaults(self, **kwargs):
        self._container.set_defaults(**kwargs)


class _MutuallyExclusiveGroup(_ArgumentGroup):
    def __init__(self, container, required=False):
        super().__init__(container)
        self.required = required

    def add_argument(self, *args, **kwargs):
        action = self._container.add_argument(*args, **kwargs)
        if action.required:
            raise ValueError("mutually exclusive arguments must be optional")
        self._group_actions.append(action)
        return action


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[],
                 formatter_class=HelpFormatter, prefix_chars="-", fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler="error", add_help=True,
                 allow_abbrev=True, exit_on_error=True):
        if fromfile_prefix_chars is not None:
            raise NotImplementedError("argparse: fromfile_prefix_chars needs the lab's file "
                                      "system, which is not there yet")
        # A notebook cell has no script name (`sys.argv[0]` is empty there): "lab" stands in.
        self.prog = prog if prog is not None else (sys.argv[0].split("/")[-1] or "lab")
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.formatter_class = formatter_class
        self.prefix_chars = prefix_chars
        self.argument_default = argument_default
        self.conflict_handler = conflict_handler
        self.add_help = add_help
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._actions = []
        self._defaults = {}
        self._positionals = _ArgumentGroup(self, "positional arguments")
        self._optionals = _ArgumentGroup(self, "options")
        self._groups = [self._positionals, self._optionals]
        self._exclusive = []
        if add_help:
            self.add_argument("-h", "--help", action="help", default=SUPPRESS,
                              help="show this help message and exit")
        for parent in parents:
            for action in parent._actions:
                if isinstance(action, _HelpAction):
                    continue
                self._add_action(action)
            self._defaults.update(parent._defaults)

    # -- declaring ---------------------------------------------------------------------------

    def add_argument(self, *args, **kwargs):
        if not args or len(args) == 1 and args[0][:1] not in self.prefix_chars:
            if args and "dest" in kwargs:
                raise ValueError("dest supplied twice for positional argument")
            dest = args[0] if args else kwargs.pop("dest")
            kwargs = {"dest": dest, "option_strings": [], **kwargs}
            if kwargs.get("nargs") not in (OPTIONAL, ZERO_OR_MORE, REMAINDER, SUPPRESS, 0):
                kwargs["required"] = True
            if kwargs.get("nargs") == ZERO_OR_MORE and "default" not in kwargs:
                kwargs["required"] = True
        else:
            option_strings = []
            long_options = []
            for option in args:
                if option[:1] not in self.prefix_chars:
                    raise ValueError(
                        f"invalid option string {option!r}: must start with a character "
                        f"{self.prefix_chars!r}")
                option_strings.append(option)
                if len(option) > 1 and option[1] in self.prefix_chars:
                    long_options.append(option)
            dest = kwargs.pop("dest", None)
            if dest is None:
                first = long_options[0] if long_options else option_strings[0]
                dest = first.lstrip(self.prefix_chars).replace("-", "_")
            kwargs = {"dest": dest, "option_strings": option_strings, **kwargs}
        if "default" not in kwargs:
            dest = kwargs["dest"]
            if dest in self._defaults:
                kwargs["default"] = self._defaults[dest]
            elif self.argument_default is not None:
                kwargs["default"] = self.argument_default
        action_name = kwargs.pop("action", None)
        action_class = _ACTIONS.get(action_name, action_name) if isinstance(action_name, (str, type(None))) else action_name
        if isinstance(action_class, str):
            raise ValueError(f"unknown action {action_class!r}")
        type_func = kwargs.get("type")
        if type_func is not None and not callable(type_func):
            raise ValueError(f"{type_func!r} is not callable")
        action = action_class(**kwargs)
        return self._add_action(action)

    def _add_action(self, action):
        for option in action.option_strings:
            for other in self._actions:
                if option in other.option_strings:
                    raise ArgumentError(action,
                                        f"conflicting option string: {option}")
        self._actions.append(action)
        group = self._optionals if action.option_strings else self._positionals
        group._group_actions.append(action)
        return action

    def _move_to_group(self, action, group):
        for g in (self._positionals, self._optionals):
            if action in g._group_actions:
                g._group_actions.remove(action)

    def add_argument_group(self, title=None, description=None):
        group = _ArgumentGroup(self, title, description)
        self._groups.append(group)
        return group

    def add_mutually_exclusive_group(self, required=False):
        group = _MutuallyExclusiveGroup(self, required)
        self._exclusive.append(group)
        return group

    def add_subparsers(self, **kwargs):
        raise NotImplementedError("argparse: subcommands (add_subparsers) are not in the lab yet")

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for action in self._actions:
            if action.dest in kwargs:
                action.default = kwargs[action.dest]

    def get_default(self, dest):
        for action in self._actions:
            if action.dest == dest and action.default is not None:
                return action.default
        return self._defaults.get(dest, None)

    # -- parsing -----------------------------------------------------------------------------

    def parse_args(self, args=None, namespace=None):
        args, argv = self.parse_known_args(args, namespace)
        if argv:
            self.error(f"unrecognized arguments: {' '.join(argv)}")
        return args

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:]) if args is None else list(args)
        if namespace is None:
            namespace = Namespace()
        for action in self._actions:
            if action.dest != SUPPRESS and not hasattr(namespace, action.dest):
                if action.default != SUPPRESS:
                    setattr(namespace, action.dest, action.default)
        for dest in self._defaults:
            if not hasattr(namespace, dest):
                setattr(namespace, dest, self._defaults[dest])
        try:
            namespace, extras = self._parse(args, namespace)
        except ArgumentError as err:
            if not self.exit_on_error:
                raise
            self.error(str(err))
        return namespace, extras

    def _find_option(self, text):
        """The action of an option string (exact, a unique prefix, or `--opt=value`)."""
        explicit = None
        if "=" in text and text[:1] in self.prefix_chars:
            text, explicit = text.split("=", 1)
        for action in self._actions:
            if text in action.option_strings:
                return action, text, explicit
        if self.allow_abbrev and text.startswith("--"):
            matches = [(a, o) for a in self._actions for o in a.option_strings
                       if o.startswith(text)]
            if len(matches) > 1:
                names = ", ".join(o for _, o in matches)
                raise ArgumentError(None, f"ambiguous option: {text} could match {names}")
            if matches:
                return matches[0][0], matches[0][1], explicit
        if len(text) > 2 and text[0] in self.prefix_chars and text[1] not in self.prefix_chars:
            short = text[:2]
            for action in self._actions:
                if short in action.option_strings:
                    return action, short, text[2:] if explicit is None else text[2:] + "=" + explicit
        return None, text, explicit

    def _is_option(self, text):
        if not text or text[0] not in self.prefix_chars or text == "-":
            return False
        if text == "--":
            return False
        if self._find_option(text)[0] is not None:
            return True
        # A negative number is a value, unless the parser has options that look like one.
        try:
            float(text)
            return any(o[1:2].isdigit() for a in self._actions for o in a.option_strings)
        except ValueError:
            return " " not in text

    def _convert(self, action, text):
        type_func = action.type
        if type_func is None:
            value = text
        else:
            try:
                value = type_func(text)
            except ArgumentTypeError as e:
                raise ArgumentError(action, str(e))
            except (TypeError, ValueError):
                name = getattr(type_func, "__name__", repr(type_func))
                raise ArgumentError(action, f"invalid {name} value: {text!r}")
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(repr(c) for c in action.choices)
            raise ArgumentError(action, f"invalid choice: {value!r} (choose from {choices})")
        return value

    def _values(self, action, texts):
        nargs = action.nargs
        if nargs == 0:
            return None
        if nargs is None:
            return self._convert(action, texts[0])
        if nargs == OPTIONAL:
            if not texts:
                if action.option_strings:
                    return action.const
                value = action.default
                if isinstance(value, str) and action.type is not None:
                    value = self._convert(action, value)
                return value
            return self._convert(action, texts[0])
        if nargs == REMAINDER:
            return list(texts)
        if nargs == ZERO_OR_MORE and not texts and not action.option_strings:
            return action.default if action.default is not None else []
        return [self._convert(action, t) for t in texts]

    def _arity(self, action):
        nargs = action.nargs
        if nargs is None:
            return 1, 1
        if nargs == OPTIONAL:
            return 0, 1
        if nargs in (ZERO_OR_MORE, REMAINDER):
            return 0, None
        if nargs == ONE_OR_MORE:
            return 1, None
        return nargs, nargs

    def _expected(self, action):
        nargs = action.nargs
        if nargs is None:
            return "expected one argument"
        if nargs == OPTIONAL:
            return "expected at most one argument"
        if nargs == ONE_OR_MORE:
            return "expected at least one argument"
        return f"expected {nargs} argument" + ("s" if nargs != 1 else "")

    def _parse(self, args, namespace):
        extras = []
        seen = []
        positionals = [a for a in self._actions if not a.option_strings]
        loose = []
        i = 0
        only_positionals = False
        while i < len(args):
            text = args[i]
            if only_positionals or not self._is_option(text):
                if text == "--" and not only_positionals:
                    only_positionals = True
                else:
                    loose.append(text)
                i += 1
                continue
            action, option, explicit = self._find_option(text)
            if action is None:
                extras.append(text)
                i += 1
                continue
            i += 1
            low, high = self._arity(action)
            if explicit is not None:
                if high == 0:
                    if len(text) > 2 and text[1] not in self.prefix_chars and "=" not in text:
                        # Flags bundled after a short one (`-vv`).
                        args.insert(i, self.prefix_chars[0] + explicit)
                        texts = []
                    else:
                        raise ArgumentError(action, f"ignored explicit argument {explicit!r}")
                else:
                    texts = [explicit]
            else:
                texts = []
                while i < len(args) and (high is None or len(texts) < high):
                    if not only_positionals and (self._is_option(args[i]) or args[i] == "--"):
                        break
                    texts.append(args[i])
                    i += 1
                if len(texts) < low:
                    raise ArgumentError(action, self._expected(action))
            self._check_exclusive(action, seen)
            seen.append(action)
            action(self, namespace, self._values(action, texts), option)
        # Positionals take the loose strings in order, each as many as its nargs allows while
        # leaving enough for the ones after it.
        at = 0
        for n, action in enumerate(positionals):
            low, high = self._arity(action)
            needed_after = sum(self._arity(a)[0] for a in positionals[n + 1:])
            available = len(loose) - at - needed_after
            if available < low:
                break
            take = available if high is None else min(high, available)
            texts = loose[at:at + take]
            at += take
            seen.append(action)
            action(self, namespace, self._values(action, texts), None)
        extras.extend(loose[at:])
        missing = [a for a in self._actions if a.required and a not in seen]
        if missing:
            names = ", ".join(_argument_name(a) for a in missing)
            self.error(f"the following arguments are required: {names}")
        for group in self._exclusive:
            if group.required and not any(a in seen for a in group._group_actions):
                names = " ".join(_argument_name(a) for a in group._group_actions
                                 if a.help != SUPPRESS)
                self.error(f"one of the arguments {names} is required")
        for action in self._actions:
            if (action not in seen and isinstance(action.default, str)
                    and action.type is not None and action.dest != SUPPRESS
                    and getattr(namespace, action.dest, None) == action.default):
                setattr(namespace, action.dest, self._convert(action, action.default))
        return namespace, extras

    def _check_exclusive(self, action, seen):
        for group in self._exclusive:
            if action in group._group_actions:
                for other in group._group_actions:
                    if other is not action and other in seen:
                        raise ArgumentError(action,
                                            f"not allowed with argument {_argument_name(other)}")

    # -- usage, help and errors --------------------------------------------------------------

    def _usage_part(self, action):
        if action.option_strings:
            if action.nargs == 0:
                part = action.format_usage()
            else:
                default = action.dest.upper()
                part = f"{action.option_strings[0]} {_format_args(action, default)}"
            return part if action.required else f"[{part}]"
        return _format_args(action, action.dest)

    def format_usage(self):
        if self.usage is not None:
            return f"usage: {self.usage.replace('%(prog)s', self.prog)}\n"
        optionals = []
        grouped = []
        for action in self._actions:
            if not action.option_strings or action.help == SUPPRESS or action in grouped:
                continue
            group = next((g for g in self._exclusive if action in g._group_actions), None)
            if group is None:
                optionals.append(self._usage_part(action))
                continue
            # A mutually exclusive group shows as `[--fast | --slow]` (`(...)` when required).
            members = [a for a in group._group_actions if a.help != SUPPRESS]
            grouped.extend(members)
            inner = " | ".join(self._usage_part(a).strip("[]") for a in members)
            optionals.append(f"({inner})" if group.required else f"[{inner}]")
        positionals = [self._usage_part(a) for a in self._actions
                       if not a.option_strings and a.help != SUPPRESS]
        parts = optionals + positionals
        prefix = f"usage: {self.prog}"
        width = 78
        line = prefix
        if len(prefix) + 1 + len(" ".join(parts)) <= width:
            return f"{prefix} {' '.join(parts)}\n".replace(" \n", "\n")
        indent = " " * (len(prefix) + 1)
        lines = []
        for part in parts:
            if line != prefix and len(line) + 1 + len(part) > width:
                lines.append(line)
                line = indent + part
            else:
                line = f"{line} {part}"
        lines.append(line)
        return "\n".join(lines) + "\n"

    def _invocation(self, action):
        if not action.option_strings:
            return _metavar(action, action.dest)
        if action.nargs == 0:
            return ", ".join(action.option_strings)
        args = _format_args(action, action.dest.upper())
        return ", ".join(f"{o} {args}" for o in action.option_strings)

    def _help_text(self, action):
        text = action.help or ""
        if self.formatter_class is ArgumentDefaultsHelpFormatter and action.help is not None:
            if "%(default)" not in text and action.default != SUPPRESS:
                if action.option_strings or action.nargs in (OPTIONAL, ZERO_OR_MORE):
                    text += " (default: %(default)s)"
        if "%" in text:
            params = dict(vars(action), prog=self.prog)
            for name in list(params):
                if params[name] == SUPPRESS:
                    del params[name]
            if params.get("choices") is not None:
                params["choices"] = ", ".join(str(c) for c in params["choices"])
            text = text % params
        return text

    def format_help(self):
        out = [self.format_usage()]
        if self.description:
            out.append("\n" + "\n".join(_wrap(self.description, 78)) + "\n")
        width = 78
        actions = [a for a in self._actions if a.help != SUPPRESS]
        invocations = [len(self._invocation(a)) + 2 for a in actions]
        help_position = min(max(invocations, default=0) + 2, 24)
        for group in self._groups:
            shown = [a for a in group._group_actions if a.help != SUPPRESS]
            if not shown:
                continue
            out.append(f"\n{group.title}:\n")
            if group.description:
                out.append(f"  {group.description}\n\n")
            for action in shown:
                invocation = "  " + self._invocation(action)
                help_text = self._help_text(action)
                if not help_text:
                    out.append(invocation + "\n")
                    continue
                lines = _wrap(help_text, max(width - help_position, 11))
                if len(invocation) + 2 <= help_position:
                    out.append(invocation.ljust(help_position) + lines[0] + "\n")
                else:
                    out.append(invocation + "\n" + " " * help_position + lines[0] + "\n")
                for line in lines[1:]:
                    out.append(" " * help_position + line + "\n")
        if self.epilog:
            out.append("\n" + "\n".join(_wrap(self.epilog, 78)) + "\n")
        return "".join(out)

    def print_usage(self, file=None):
        (file or sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise SystemExit(status)

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class FileType:
    def __init__(self, mode="r", bufsize=-1, encoding=None, errors=None):
        raise NotImplementedError("argparse.FileType needs the lab's file system, which is not "
                                  "there yet")
