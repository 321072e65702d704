"""logging, as the lab has it: levels, the logger hierarchy (`getLogger(__name__ + ".train")`,
propagation, effective levels), `basicConfig`, handlers (`StreamHandler`, `NullHandler`), filters,
`Formatter` with the `%`, `{` and `$` styles and CPython's record attributes, `LoggerAdapter`,
`disable`, and the last-resort handler that prints warnings to stderr when nothing is
configured. Times are UTC (the lab has no time zone). A file handler needs the lab's file
system, which is not there yet."""

import sys
import time
import _lab

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0

_levelToName = {
    CRITICAL: "CRITICAL",
    ERROR: "ERROR",
    WARNING: "WARNING",
    INFO: "INFO",
    DEBUG: "DEBUG",
    NOTSET: "NOTSET",
}
_nameToLevel = {
    "CRITICAL": CRITICAL,
    "FATAL": FATAL,
    "ERROR": ERROR,
    "WARN": WARNING,
    "WARNING": WARNING,
    "INFO": INFO,
    "DEBUG": DEBUG,
    "NOTSET": NOTSET,
}

BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"
_start = time.time()
# What `disable` set (kept in a dict: the module's functions change it in place).
_state = {"disabled": NOTSET}


def getLevelName(level):
    if level in _levelToName:
        return _levelToName[level]
    if level in _nameToLevel:
        return _nameToLevel[level]
    return f"Level {level}"


def getLevelNamesMapping():
    return dict(_nameToLevel)


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if isinstance(level, str):
        if level not in _nameToLevel:
            raise ValueError(f"Unknown level: {level!r}")
        return _nameToLevel[level]
    raise TypeError(f"Level not an integer or a valid string: {level!r}")


def _civil(seconds):
    """UTC calendar fields of a POSIX time: (year, month, day, hour, minute, second)."""
    days, rest = divmod(int(seconds), 86400)
    # Howard Hinnant's days-to-civil algorithm.
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day, rest // 3600, rest // 60 % 60, rest % 60


_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _strftime(fmt, seconds):
    year, month, day, hour, minute, second = _civil(seconds)
    weekday = (int(seconds) // 86400 + 3) % 7
    fields = {
        "Y": f"{year:04d}", "m": f"{month:02d}", "d": f"{day:02d}", "H": f"{hour:02d}",
        "M": f"{minute:02d}", "S": f"{second:02d}", "y": f"{year % 100:02d}",
        "I": f"{(hour % 12) or 12:02d}", "p": "AM" if hour < 12 else "PM",
        "a": _DAYS[weekday], "b": _MONTHS[month - 1], "B": _MONTHS[month - 1],
        "Z": "UTC", "z": "+0000", "%": "%",
    }
    out = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            code = fmt[i + 1]
            if code not in fields:
                raise NotImplementedError(f"logging: the time directive %{code} is not in the lab yet")
            out.append(fields[code])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None,
                 sinfo=None):
        now = time.time()
        self.name = name
        self.msg = msg
        if args and len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        self.args = args
        self.levelname = getLevelName(level)
        self.levelno = level
        self.pathname = pathname
        self.filename = pathname.replace("\\", "/").split("/")[-1]
        self.module = self.filename.rsplit(".", 1)[0] if "." in self.filename else self.filename
        self.exc_info = exc_info
        self.exc_text = None
        self.stack_info = sinfo
        self.lineno = lineno
        self.funcName = func
        self.created = now
        self.msecs = int((now - int(now)) * 1000) + 0.0
        self.relativeCreated = (now - _start) * 1000
        self.thread = 1
        self.threadName = "MainThread"
        self.processName = "MainProcess"
        self.process = 1
        self.taskName = None

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg

    def __repr__(self):
        return f'<LogRecord: {self.name}, {self.levelno}, {self.pathname}, {self.lineno}, "{self.msg}">'


def _record_fields(record):
    return {
        "name": record.name, "msg": record.msg, "args": record.args,
        "levelname": record.levelname, "levelno": record.levelno,
        "pathname": record.pathname, "filename": record.filename, "module": record.module,
        "exc_info": record.exc_info, "exc_text": record.exc_text,
        "stack_info": record.stack_info, "lineno": record.lineno, "funcName": record.funcName,
        "created": record.created, "msecs": record.msecs,
        "relativeCreated": record.relativeCreated, "thread": record.thread,
        "threadName": record.threadName, "processName": record.processName,
        "process": record.process, "taskName": record.taskName,
        "message": getattr(record, "message", None), "asctime": getattr(record, "asctime", None),
        **getattr(record, "_extra", {}),
    }


class PercentStyle:
    default_format = "%(message)s"
    asctime_search = "%(asctime)"

    def __init__(self, fmt, defaults=None):
        self._fmt = fmt or self.default_format
        self._defaults = defaults

    def usesTime(self):
        return self.asctime_search in self._fmt

    def _fields(self, record):
        fields = _record_fields(record)
        if self._defaults:
            fields = {**self._defaults, **fields}
        return fields

    def format(self, record):
        try:
            return self._format(record)
        except KeyError as e:
            raise ValueError(f"Formatting field not found in record: {e}")

    def _format(self, record):
        return self._fmt % self._fields(record)


class StrFormatStyle(PercentStyle):
    default_format = "{message}"
    asctime_search = "{asctime"

    def _format(self, record):
        return self._fmt.format(**self._fields(record))


class StringTemplateStyle(PercentStyle):
    default_format = "${message}"
    asctime_search = "${asctime}"

    def _format(self, record):
        from string import Template
        return Template(self._fmt).substitute(**self._fields(record))


_STYLES = {"%": PercentStyle, "{": StrFormatStyle, "$": StringTemplateStyle}


class Formatter:
    default_time_format = "%Y-%m-%d %H:%M:%S"
    default_msec_format = "%s,%03d"

    def __init__(self, fmt=None, datefmt=None, style="%", validate=True, *, defaults=None):
        if style not in _STYLES:
            raise ValueError(f"Style must be one of: {','.join(_STYLES.keys())}")
        self._style = _STYLES[style](fmt, defaults)
        self._fmt = self._style._fmt
        self.datefmt = datefmt

    def usesTime(self):
        return self._style.usesTime()

    def formatTime(self, record, datefmt=None):
        if datefmt:
            return _strftime(datefmt, record.created)
        s = _strftime(self.default_time_format, record.created)
        return self.default_msec_format % (s, record.msecs)

    def formatException(self, ei):
        return ei[2].rstrip("\n")

    def formatStack(self, stack_info):
        return stack_info

    def formatMessage(self, record):
        return self._style.format(record)

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        s = self.formatMessage(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            if s[-1:] != "\n":
                s = s + "\n"
            s = s + record.exc_text
        if record.stack_info:
            if s[-1:] != "\n":
                s = s + "\n"
            s = s + self.formatStack(record.stack_info)
        return s


_defaultFormatter = Formatter()


class Filter:
    def __init__(self, name=""):
        self.name = name
        self.nlen = len(name)

    def filter(self, record):
        if self.nlen == 0 or self.name == record.name:
            return True
        if not record.name.startswith(self.name):
            return False
        return record.name[self.nlen] == "."


class Filterer:
    def __init__(self):
        self.filters = []

    def addFilter(self, filter):
        if filter not in self.filters:
            self.filters.append(filter)

    def removeFilter(self, filter):
        if filter in self.filters:
            self.filters.remove(filter)

    def filter(self, record):
        for f in self.filters:
            result = f.filter(record) if hasattr(f, "filter") else f(record)
            if not result:
                return False
        return True


class Handler(Filterer):
    def __init__(self, level=NOTSET):
        Filterer.__init__(self)
        self._name = None
        self.level = _checkLevel(level)
        self.formatter = None

    name = property(lambda self: self._name)

    def get_name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        fmt = self.formatter if self.formatter else _defaultFormatter
        return fmt.format(record)

    def handle(self, record):
        rv = self.filter(record)
        if rv:
            self.emit(record)
        return rv

    def emit(self, record):
        raise NotImplementedError("emit must be implemented by Handler subclasses")

    def flush(self):
        pass

    def close(self):
        pass

    def handleError(self, record):
        raise

    def __repr__(self):
        return f"<{type(self).__name__} ({getLevelName(self.level)})>"


class StreamHandler(Handler):
    terminator = "\n"

    def __init__(self, stream=None):
        Handler.__init__(self)
        self.stream = sys.stderr if stream is None else stream

    def flush(self):
        if hasattr(self.stream, "flush"):
            self.stream.flush()

    def emit(self, record):
        msg = self.format(record)
        self.stream.write(msg + self.terminator)
        self.flush()

    def setStream(self, stream):
        if stream is self.stream:
            return None
        old = self.stream
        self.stream = stream
        return old

    def __repr__(self):
        name = getattr(self.stream, "name", "")
        name = f"{name} " if name else ""
        return f"<{type(self).__name__} {name}({getLevelName(self.level)})>"


class FileHandler(StreamHandler):
    def __init__(self, filename, mode="a", encoding=None, delay=False, errors=None):
        raise NotImplementedError(
            "logging.FileHandler: the lab has no file system for text files yet "
            "(log to sys.stdout or an io.StringIO)")


class NullHandler(Handler):
    def handle(self, record):
        pass

    def emit(self, record):
        pass


class _StderrHandler(StreamHandler):
    """The last resort: what prints a warning when no handler is configured anywhere."""

    def __init__(self, level=NOTSET):
        Handler.__init__(self, level)

    stream = property(lambda self: sys.stderr)


lastResort = _StderrHandler(WARNING)


class Logger(Filterer):
    def __init__(self, name, level=NOTSET):
        Filterer.__init__(self)
        self.name = name
        self.level = _checkLevel(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        if self.disabled or _state["disabled"] >= level:
            return False
        return level >= self.getEffectiveLevel()

    def getChild(self, suffix):
        if self is root:
            return getLogger(suffix)
        return getLogger(self.name + "." + suffix)

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        logger = self
        while logger:
            if logger.handlers:
                return True
            if not logger.propagate:
                return False
            logger = logger.parent
        return False

    def debug(self, msg, *args, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, **kwargs)

    def info(self, msg, *args, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, **kwargs)

    warn = warning

    def error(self, msg, *args, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.error(msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, **kwargs)

    fatal = critical

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            raise TypeError("level must be an integer")
        if self.isEnabledFor(level):
            self._log(level, msg, args, **kwargs)

    def _log(self, level, msg, args, exc_info=None, extra=None, stack_info=False, stacklevel=1):
        pathname, lineno, func = _lab.caller()
        if exc_info:
            if isinstance(exc_info, BaseException):
                handled = _lab.exc_info()
                if handled[1] is exc_info:
                    exc_info = handled
                else:
                    exc_info = (type(exc_info), exc_info,
                                f"{type(exc_info).__name__}: {exc_info}")
            elif not isinstance(exc_info, tuple):
                exc_info = _lab.exc_info()
            if exc_info[0] is None:
                exc_info = (None, None, "NoneType: None")
        record = LogRecord(self.name, level, pathname, lineno, msg, args, exc_info or None, func,
                           "Stack (most recent call last):\n" if stack_info else None)
        if extra is not None:
            for key in extra:
                if key in ("message", "asctime") or hasattr(record, key):
                    raise KeyError(f"Attempt to overwrite {key!r} in LogRecord")
                setattr(record, key, extra[key])
            record._extra = dict(extra)
        self.handle(record)

    def handle(self, record):
        if self.disabled or not self.filter(record):
            return
        found = 0
        logger = self
        while logger:
            for hdlr in logger.handlers:
                found = found + 1
                if record.levelno >= hdlr.level:
                    hdlr.handle(record)
            if not logger.propagate:
                break
            logger = logger.parent
        if found == 0 and lastResort is not None and record.levelno >= lastResort.level:
            lastResort.handle(record)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name} ({getLevelName(self.getEffectiveLevel())})>"


class RootLogger(Logger):
    def __init__(self, level):
        Logger.__init__(self, "root", level)


root = RootLogger(WARNING)
_loggers = {}


def getLogger(name=None):
    if not name or name == "root":
        return root
    if not isinstance(name, str):
        raise TypeError("A logger name must be a string")
    if name in _loggers:
        return _loggers[name]
    logger = Logger(name)
    _loggers[name] = logger
    _fix_parents(name)
    return logger


def _fix_parents(name):
    """Each logger's parent is its nearest existing dotted ancestor, else the root."""
    for other_name, other in _loggers.items():
        if other_name == name or other_name.startswith(name + "."):
            parent = root
            parts = other_name.split(".")
            for i in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:i])
                if prefix in _loggers:
                    parent = _loggers[prefix]
                    break
            other.parent = parent


class LoggerAdapter:
    def __init__(self, logger, extra=None):
        self.logger = logger
        self.extra = extra

    def process(self, msg, kwargs):
        kwargs["extra"] = self.extra
        return msg, kwargs

    def log(self, level, msg, *args, **kwargs):
        if self.isEnabledFor(level):
            msg, kwargs = self.process(msg, kwargs)
            self.logger.log(level, msg, *args, **kwargs)

    def debug(self, msg, *args, **kwargs):
        self.log(DEBUG, msg, *args, **kwargs)

    def info(self, msg, *args, **kwargs):
        self.log(INFO, msg, *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        self.log(WARNING, msg, *args, **kwargs)

    def error(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.log(ERROR, msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        self.log(CRITICAL, msg, *args, **kwargs)

    def isEnabledFor(self, level):
        return self.logger.isEnabledFor(level)

    def setLevel(self, level):
        self.logger.setLevel(level)

    def getEffectiveLevel(self):
        return self.logger.getEffectiveLevel()

    def __repr__(self):
        return f"<LoggerAdapter {self.logger.name} ({getLevelName(self.getEffectiveLevel())})>"


def basicConfig(**kwargs):
    force = kwargs.pop("force", False)
    if force:
        for h in root.handlers[:]:
            root.removeHandler(h)
            h.close()
    if root.handlers:
        return
    handlers = kwargs.pop("handlers", None)
    if handlers is not None and ("stream" in kwargs or "filename" in kwargs):
        raise ValueError("'stream' or 'filename' should not be specified together with 'handlers'")
    if "stream" in kwargs and "filename" in kwargs:
        raise ValueError("'stream' and 'filename' should not be specified together")
    if handlers is None:
        filename = kwargs.pop("filename", None)
        mode = kwargs.pop("filemode", "a")
        if filename:
            handlers = [FileHandler(filename, mode)]
        else:
            handlers = [StreamHandler(kwargs.pop("stream", None))]
    kwargs.pop("encoding", None)
    kwargs.pop("errors", None)
    dfs = kwargs.pop("datefmt", None)
    style = kwargs.pop("style", "%")
    if style not in _STYLES:
        raise ValueError(f"Style must be one of: {','.join(_STYLES.keys())}")
    fs = kwargs.pop("format", _STYLES[style].default_format if style != "%" else BASIC_FORMAT)
    formatter = Formatter(fs, dfs, style)
    for h in handlers:
        if h.formatter is None:
            h.setFormatter(formatter)
        root.addHandler(h)
    level = kwargs.pop("level", None)
    if level is not None:
        root.setLevel(level)
    if kwargs:
        keys = ", ".join(kwargs.keys())
        raise ValueError(f"Unrecognised argument(s): {keys}")


def _root_ready():
    if not root.handlers:
        basicConfig()


def debug(msg, *args, **kwargs):
    _root_ready()
    root.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _root_ready()
    root.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _root_ready()
    root.warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _root_ready()
    root.error(msg, *args, **kwargs)


def exception(msg, *args, exc_info=True, **kwargs):
    _root_ready()
    root.error(msg, *args, exc_info=exc_info, **kwargs)


def critical(msg, *args, **kwargs):
    _root_ready()
    root.critical(msg, *args, **kwargs)


fatal = critical


def log(level, msg, *args, **kwargs):
    _root_ready()
    root.log(level, msg, *args, **kwargs)


def disable(level=CRITICAL):
    _state["disabled"] = level


def shutdown():
    for h in root.handlers:
        h.flush()


def getLoggerClass():
    return Logger


def captureWarnings(capture):
    raise NotImplementedError("logging.captureWarnings is not in the lab yet")
