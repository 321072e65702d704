"""datetime, as the lab has it: `date`, `time`, `datetime`, `timedelta` and `timezone` with
CPython's arithmetic, comparisons, reprs, `isoformat`/`fromisoformat` and `strftime`
(the C locale's names); `strptime` for the same directives. The lab's clock is UTC:
`now()` and `today()` are UTC times, as `time.time()` gives them."""

import time as _time

MINYEAR = 1
MAXYEAR = 9999

_DAYS_IN_MONTH = [-1, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_DAYS_BEFORE_MONTH = [-1]
_n = 0
for _d in _DAYS_IN_MONTH[1:]:
    _DAYS_BEFORE_MONTH.append(_n)
    _n += _d
del _n, _d

_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_FULL_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
_FULL_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year, month):
    return 29 if month == 2 and _is_leap(year) else _DAYS_IN_MONTH[month]


def _days_before_year(year):
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _ymd2ord(year, month, day):
    return (_days_before_year(year) + _DAYS_BEFORE_MONTH[month]
            + (month > 2 and _is_leap(year)) + day)


def _ord2ymd(n):
    """The (year, month, day) of proleptic Gregorian ordinal n (1 is 0001-01-01)."""
    n -= 1
    n400, n = divmod(n, 146097)
    year = n400 * 400 + 1
    n100, n = divmod(n, 36524)
    n4, n = divmod(n, 1461)
    n1, n = divmod(n, 365)
    year += n100 * 100 + n4 * 4 + n1
    if n1 == 4 or n100 == 4:
        return year - 1, 12, 31
    leap = n1 == 3 and (n4 != 24 or n100 == 3)
    month = (n + 50) >> 5
    preceding = _DAYS_BEFORE_MONTH[month] + (month > 2 and leap)
    if preceding > n:
        month -= 1
        preceding -= _DAYS_IN_MONTH[month] + (month == 2 and leap)
    return year, month, n - preceding + 1


def _check_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")


def _check_date(year, month, day):
    for name, value in (("year", year), ("month", month), ("day", day)):
        _check_int(name, value)
    if not MINYEAR <= year <= MAXYEAR:
        raise ValueError(f"year {year} is out of range")
    if not 1 <= month <= 12:
        raise ValueError("month must be in 1..12")
    if not 1 <= day <= _days_in_month(year, month):
        raise ValueError("day is out of range for month")


def _check_time(hour, minute, second, microsecond):
    for value in (hour, minute, second, microsecond):
        _check_int("time", value)
    if not 0 <= hour <= 23:
        raise ValueError("hour must be in 0..23")
    if not 0 <= minute <= 59:
        raise ValueError("minute must be in 0..59")
    if not 0 <= second <= 59:
        raise ValueError("second must be in 0..59")
    if not 0 <= microsecond <= 999999:
        raise ValueError("microsecond must be in 0..999999")


class timedelta:
    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0,
                 weeks=0):
        total = (((weeks * 7 + days) * 86400 + hours * 3600 + minutes * 60 + seconds) * 1000000
                 + milliseconds * 1000 + microseconds)
        total = round(total)
        d, rest = divmod(total, 86400 * 1000000)
        s, us = divmod(rest, 1000000)
        if abs(d) > 999999999:
            raise OverflowError(f"days={d}; must have magnitude <= 999999999")
        self._days, self._seconds, self._microseconds = d, s, us

    days = property(lambda self: self._days)
    seconds = property(lambda self: self._seconds)
    microseconds = property(lambda self: self._microseconds)

    def _total_us(self):
        return (self._days * 86400 + self._seconds) * 1000000 + self._microseconds

    def total_seconds(self):
        return self._total_us() / 10 ** 6

    def __repr__(self):
        parts = []
        if self._days:
            parts.append(f"days={self._days}")
        if self._seconds:
            parts.append(f"seconds={self._seconds}")
        if self._microseconds:
            parts.append(f"microseconds={self._microseconds}")
        return f"datetime.timedelta({', '.join(parts)})"

    def __str__(self):
        mm, ss = divmod(self._seconds, 60)
        hh, mm = divmod(mm, 60)
        s = f"{hh}:{mm:02d}:{ss:02d}"
        if self._days:
            plural = "s" if abs(self._days) != 1 else ""
            s = f"{self._days} day{plural}, " + s
        if self._microseconds:
            s += f".{self._microseconds:06d}"
        return s

    def __add__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._total_us() + other._total_us())
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._total_us() - other._total_us())
        return NotImplemented

    def __neg__(self):
        return timedelta(microseconds=-self._total_us())

    def __pos__(self):
        return self

    def __abs__(self):
        return -self if self._days < 0 else self

    def __mul__(self, other):
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            return timedelta(microseconds=self._total_us() * other)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() / other._total_us()
        if isinstance(other, (int, float)):
            return timedelta(microseconds=self._total_us() / other)
        return NotImplemented

    def __floordiv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() // other._total_us()
        if isinstance(other, int):
            return timedelta(microseconds=self._total_us() // other)
        return NotImplemented

    def __mod__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._total_us() % other._total_us())
        return NotImplemented

    def __eq__(self, other):
        return isinstance(other, timedelta) and self._total_us() == other._total_us()

    def __lt__(self, other):
        if not isinstance(other, timedelta):
            return NotImplemented
        return self._total_us() < other._total_us()

    def __le__(self, other):
        if not isinstance(other, timedelta):
            return NotImplemented
        return self._total_us() <= other._total_us()

    def __gt__(self, other):
        if not isinstance(other, timedelta):
            return NotImplemented
        return self._total_us() > other._total_us()

    def __ge__(self, other):
        if not isinstance(other, timedelta):
            return NotImplemented
        return self._total_us() >= other._total_us()

    def __hash__(self):
        return hash(self._total_us())

    def __bool__(self):
        return self._total_us() != 0


timedelta.min = timedelta(-999999999)
timedelta.max = timedelta(days=999999999, hours=23, minutes=59, seconds=59, microseconds=999999)
timedelta.resolution = timedelta(microseconds=1)


class tzinfo:
    pass


class timezone(tzinfo):
    def __init__(self, offset, name=None):
        if not isinstance(offset, timedelta):
            raise TypeError("offset must be a timedelta")
        self._offset = offset
        self._name = name

    def utcoffset(self, dt):
        return self._offset

    def tzname(self, dt):
        if self._name is not None:
            return self._name
        if not self._offset:
            return "UTC"
        return "UTC" + _offset_text(self._offset, ":")

    def __repr__(self):
        if not self._offset and self._name is None:
            return "datetime.timezone.utc"
        if self._name is None:
            return f"datetime.timezone({self._offset!r})"
        return f"datetime.timezone({self._offset!r}, {self._name!r})"

    def __str__(self):
        return self.tzname(None)

    def __eq__(self, other):
        return isinstance(other, timezone) and self._offset == other._offset

    def __hash__(self):
        return hash(self._offset)


timezone.utc = timezone(timedelta(0))
UTC = timezone.utc


def _offset_text(offset, sep):
    sign = "-" if offset._total_us() < 0 else "+"
    us = abs(offset._total_us())
    hh, rest = divmod(us, 3600 * 10 ** 6)
    mm, rest = divmod(rest, 60 * 10 ** 6)
    ss, us = divmod(rest, 10 ** 6)
    text = f"{sign}{hh:02d}{sep}{mm:02d}"
    if ss or us:
        text += f"{sep}{ss:02d}"
    if us:
        text += f".{us:06d}"
    return text


def _week_of_year(d, first_weekday):
    """%U (weeks starting Sunday, first_weekday 6) and %W (Monday, 0)."""
    yday = d._yday() - 1
    return (yday + 7 - (d.weekday() - first_weekday) % 7) // 7


# What each strftime directive writes, from the date part `d` and the time part
# `t` = (hour, minute, second, microsecond, tzinfo).
_DIRECTIVES = {
    "Y": lambda d, t: f"{d.year}",
    "y": lambda d, t: f"{d.year % 100:02d}",
    "m": lambda d, t: f"{d.month:02d}",
    "d": lambda d, t: f"{d.day:02d}",
    "e": lambda d, t: f"{d.day:2d}",
    "H": lambda d, t: f"{t[0]:02d}",
    "I": lambda d, t: f"{(t[0] % 12) or 12:02d}",
    "M": lambda d, t: f"{t[1]:02d}",
    "S": lambda d, t: f"{t[2]:02d}",
    "f": lambda d, t: f"{t[3]:06d}",
    "p": lambda d, t: "AM" if t[0] < 12 else "PM",
    "a": lambda d, t: _DAYS[d.weekday()],
    "A": lambda d, t: _FULL_DAYS[d.weekday()],
    "w": lambda d, t: f"{(d.weekday() + 1) % 7}",
    "u": lambda d, t: f"{d.weekday() + 1}",
    "b": lambda d, t: _MONTHS[d.month - 1],
    "h": lambda d, t: _MONTHS[d.month - 1],
    "B": lambda d, t: _FULL_MONTHS[d.month - 1],
    "j": lambda d, t: f"{d._yday():03d}",
    "U": lambda d, t: f"{_week_of_year(d, 6):02d}",
    "W": lambda d, t: f"{_week_of_year(d, 0):02d}",
    "c": lambda d, t: _format("%a %b %e %H:%M:%S %Y", d, t),
    "x": lambda d, t: _format("%m/%d/%y", d, t),
    "X": lambda d, t: _format("%H:%M:%S", d, t),
    "z": lambda d, t: "" if t[4] is None else _offset_text(t[4].utcoffset(None), ""),
    "Z": lambda d, t: "" if t[4] is None else t[4].tzname(None),
    "%": lambda d, t: "%",
}


def _format(fmt, d, t):
    out = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%" or i + 1 == len(fmt):
            out.append(c)
            i += 1
            continue
        code = fmt[i + 1]
        i += 2
        if code not in _DIRECTIVES:
            raise ValueError(f"strftime directive '%{code}' is not in the lab yet")
        out.append(_DIRECTIVES[code](d, t))
    return "".join(out)


class date:
    def __init__(self, year, month, day):
        _check_date(year, month, day)
        self._year, self._month, self._day = year, month, day

    year = property(lambda self: self._year)
    month = property(lambda self: self._month)
    day = property(lambda self: self._day)

    @classmethod
    def today(cls):
        return cls.fromtimestamp(_time.time())

    @classmethod
    def fromtimestamp(cls, t):
        d = datetime.fromtimestamp(t)
        return cls(d.year, d.month, d.day)

    @classmethod
    def fromordinal(cls, n):
        return cls(*_ord2ymd(n))

    @classmethod
    def fromisoformat(cls, text):
        if not isinstance(text, str):
            raise TypeError("fromisoformat: argument must be str")
        try:
            if len(text) == 8 and text.isdigit():
                return cls(int(text[:4]), int(text[4:6]), int(text[6:]))
            year, month, day = text.split("-")
            if len(year) != 4 or len(month) != 2 or len(day) != 2:
                raise ValueError
            return cls(int(year), int(month), int(day))
        except ValueError:
            raise ValueError(f"Invalid isoformat string: {text!r}") from None

    def toordinal(self):
        return _ymd2ord(self._year, self._month, self._day)

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoweekday(self):
        return self.weekday() + 1

    def isocalendar(self):
        year = self._year
        week1 = _iso_week1_monday(year)
        today = self.toordinal()
        week, day = divmod(today - week1, 7)
        if week < 0:
            year -= 1
            week, day = divmod(today - _iso_week1_monday(year), 7)
        elif week >= 52 and today >= _iso_week1_monday(year + 1):
            year += 1
            week = 0
        return IsoCalendarDate((year, week + 1, day + 1))

    def _yday(self):
        return self.toordinal() - _ymd2ord(self._year, 1, 1) + 1

    def replace(self, year=None, month=None, day=None):
        return type(self)(self._year if year is None else year,
                          self._month if month is None else month,
                          self._day if day is None else day)

    def isoformat(self):
        return f"{self._year:04d}-{self._month:02d}-{self._day:02d}"

    __str__ = isoformat

    def strftime(self, fmt):
        return _format(fmt, self, (0, 0, 0, 0, None))

    def __format__(self, spec):
        return self.strftime(spec) if spec else str(self)

    def ctime(self):
        return self.strftime("%c")

    def __repr__(self):
        return f"datetime.date({self._year}, {self._month}, {self._day})"

    def _key(self):
        return self.toordinal()

    def __eq__(self, other):
        if isinstance(other, datetime) != isinstance(self, datetime):
            return False
        return isinstance(other, date) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _compare(self, other, op):
        if not isinstance(other, date) or isinstance(other, datetime) != isinstance(self, datetime):
            # As CPython words it for its C types, which carry their module's name.
            raise TypeError(f"'{op}' not supported between instances of "
                            f"'datetime.{type(self).__name__}' and '{type(other).__name__}'")
        a, b = self._key(), other._key()
        return (a > b) - (a < b)

    def __lt__(self, other):
        return self._compare(other, "<") < 0

    def __le__(self, other):
        return self._compare(other, "<=") <= 0

    def __gt__(self, other):
        return self._compare(other, ">") > 0

    def __ge__(self, other):
        return self._compare(other, ">=") >= 0

    def __add__(self, other):
        if isinstance(other, timedelta):
            n = self.toordinal() + other.days
            if not 0 < n <= _MAX_ORDINAL:
                raise OverflowError("date value out of range")
            return type(self).fromordinal(n)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return self + timedelta(-other.days)
        if isinstance(other, date) and not isinstance(other, datetime):
            return timedelta(self.toordinal() - other.toordinal())
        return NotImplemented


class IsoCalendarDate(tuple):
    year = property(lambda self: self[0])
    week = property(lambda self: self[1])
    weekday = property(lambda self: self[2])

    def __repr__(self):
        return f"datetime.IsoCalendarDate(year={self[0]}, week={self[1]}, weekday={self[2]})"


def _iso_week1_monday(year):
    first = _ymd2ord(year, 1, 1)
    first_weekday = (first + 6) % 7
    monday = first - first_weekday
    if first_weekday > 3:
        monday += 7
    return monday


_MAX_ORDINAL = _ymd2ord(MAXYEAR, 12, 31)
date.min = date(1, 1, 1)
date.max = date(MAXYEAR, 12, 31)
date.resolution = timedelta(days=1)


class _Clock:
    """What `time` and `datetime` share: the time of day, its checks and its repr."""

    hour = property(lambda self: self._hour)
    minute = property(lambda self: self._minute)
    second = property(lambda self: self._second)
    microsecond = property(lambda self: self._microsecond)
    tzinfo = property(lambda self: self._tzinfo)

    def _set_clock(self, hour, minute, second, microsecond, tzinfo):
        _check_time(hour, minute, second, microsecond)
        self._hour, self._minute, self._second, self._microsecond = hour, minute, second, microsecond
        self._tzinfo = tzinfo

    def _clock_repr(self, kind, leading):
        """`datetime.kind(leading..., hour, minute[, second[, microsecond]][, tzinfo=...])`."""
        parts = list(leading) + [self._hour, self._minute]
        if self._second or self._microsecond:
            parts.append(self._second)
        if self._microsecond:
            parts.append(self._microsecond)
        text = ", ".join(str(p) for p in parts)
        if self._tzinfo is not None:
            text += f", tzinfo={self._tzinfo!r}"
        return f"datetime.{kind}({text})"


class time(_Clock):
    def __init__(self, hour=0, minute=0, second=0, microsecond=0, tzinfo=None):
        self._set_clock(hour, minute, second, microsecond, tzinfo)


    def isoformat(self, timespec="auto"):
        return _time_text(self._hour, self._minute, self._second, self._microsecond, timespec) + (
            "" if self._tzinfo is None else _offset_text(self._tzinfo.utcoffset(None), ":"))

    __str__ = isoformat

    def strftime(self, fmt):
        return _format(fmt, date(1900, 1, 1),
                       (self._hour, self._minute, self._second, self._microsecond, self._tzinfo))

    def __format__(self, spec):
        return self.strftime(spec) if spec else str(self)

    def __repr__(self):
        return self._clock_repr("time", ())

    def _key(self):
        return (self._hour, self._minute, self._second, self._microsecond)

    def __eq__(self, other):
        return isinstance(other, time) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __lt__(self, other):
        return self._key() < other._key()

    def __le__(self, other):
        return self._key() <= other._key()

    def __gt__(self, other):
        return self._key() > other._key()

    def __ge__(self, other):
        return self._key() >= other._key()


def _time_text(hh, mm, ss, us, timespec):
    if timespec == "auto":
        timespec = "microseconds" if us else "seconds"
    if timespec == "hours":
        return f"{hh:02d}"
    if timespec == "minutes":
        return f"{hh:02d}:{mm:02d}"
    if timespec == "seconds":
        return f"{hh:02d}:{mm:02d}:{ss:02d}"
    if timespec == "milliseconds":
        return f"{hh:02d}:{mm:02d}:{ss:02d}.{us // 1000:03d}"
    if timespec == "microseconds":
        return f"{hh:02d}:{mm:02d}:{ss:02d}.{us:06d}"
    raise ValueError("Unknown timespec value")


class datetime(date, _Clock):
    def __init__(self, year, month, day, hour=0, minute=0, second=0, microsecond=0,
                 tzinfo=None):
        _check_date(year, month, day)
        self._year, self._month, self._day = year, month, day
        self._set_clock(hour, minute, second, microsecond, tzinfo)


    @classmethod
    def now(cls, tz=None):
        return cls.fromtimestamp(_time.time(), tz)

    @classmethod
    def utcnow(cls):
        return cls.fromtimestamp(_time.time())

    @classmethod
    def today(cls):
        return cls.now()

    @classmethod
    def fromtimestamp(cls, t, tz=None):
        us = round(t * 10 ** 6)
        if tz is not None:
            us += tz.utcoffset(None)._total_us()
        days, us = divmod(us, 86400 * 10 ** 6)
        y, m, d = _ord2ymd(days + _EPOCH_ORDINAL)
        s, us = divmod(us, 10 ** 6)
        hh, s = divmod(s, 3600)
        mm, ss = divmod(s, 60)
        return cls(y, m, d, hh, mm, ss, us, tz)

    @classmethod
    def combine(cls, d, t, tzinfo=True):
        tz = t.tzinfo if tzinfo is True else tzinfo
        return cls(d.year, d.month, d.day, t.hour, t.minute, t.second, t.microsecond, tz)

    @classmethod
    def fromisoformat(cls, text):
        if not isinstance(text, str):
            raise TypeError("fromisoformat: argument must be str")
        try:
            day_part, sep, time_part = text.partition("T") if "T" in text else text.partition(" ")
            d = date.fromisoformat(day_part)
            hh = mm = ss = us = 0
            tz = None
            if sep:
                for mark in ("+", "-", "Z"):
                    if mark in time_part:
                        time_part, _, offset = time_part.partition(mark)
                        if mark == "Z":
                            tz = timezone.utc
                        else:
                            oh, _, om = offset.partition(":")
                            delta = timedelta(hours=int(oh), minutes=int(om or 0))
                            tz = timezone(delta if mark == "+" else -delta)
                        break
                clock, _, fraction = time_part.partition(".")
                fields = clock.split(":")
                hh = int(fields[0])
                mm = int(fields[1]) if len(fields) > 1 else 0
                ss = int(fields[2]) if len(fields) > 2 else 0
                if fraction:
                    us = int((fraction + "000000")[:6])
            return cls(d.year, d.month, d.day, hh, mm, ss, us, tz)
        except (ValueError, IndexError):
            raise ValueError(f"Invalid isoformat string: {text!r}") from None

    @classmethod
    def strptime(cls, text, fmt):
        return _parse(text, fmt, cls)

    def date(self):
        return date(self._year, self._month, self._day)

    def time(self):
        return time(self._hour, self._minute, self._second, self._microsecond)

    def timestamp(self):
        days = self.toordinal() - _EPOCH_ORDINAL
        seconds = days * 86400 + self._hour * 3600 + self._minute * 60 + self._second
        if self._tzinfo is not None:
            seconds -= self._tzinfo.utcoffset(None)._total_us() // 10 ** 6
        return seconds + self._microsecond / 10 ** 6

    def replace(self, year=None, month=None, day=None, hour=None, minute=None, second=None,
                microsecond=None, tzinfo=True):
        pick = lambda new, old: old if new is None else new
        return type(self)(pick(year, self._year), pick(month, self._month), pick(day, self._day),
                          pick(hour, self._hour), pick(minute, self._minute),
                          pick(second, self._second), pick(microsecond, self._microsecond),
                          self._tzinfo if tzinfo is True else tzinfo)

    def astimezone(self, tz=None):
        tz = timezone.utc if tz is None else tz
        return datetime.fromtimestamp(self.timestamp(), tz)

    def utcoffset(self):
        return None if self._tzinfo is None else self._tzinfo.utcoffset(self)

    def tzname(self):
        return None if self._tzinfo is None else self._tzinfo.tzname(self)

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoformat(self, sep="T", timespec="auto"):
        text = (f"{self._year:04d}-{self._month:02d}-{self._day:02d}{sep}"
                + _time_text(self._hour, self._minute, self._second, self._microsecond, timespec))
        if self._tzinfo is not None:
            text += _offset_text(self._tzinfo.utcoffset(self), ":")
        return text

    def __str__(self):
        return self.isoformat(" ")

    def strftime(self, fmt):
        return _format(fmt, self.date(),
                       (self._hour, self._minute, self._second, self._microsecond, self._tzinfo))

    def __repr__(self):
        return self._clock_repr("datetime", (self._year, self._month, self._day))

    def _key(self):
        us = ((self.toordinal() * 86400 + self._hour * 3600 + self._minute * 60 + self._second)
              * 10 ** 6 + self._microsecond)
        if self._tzinfo is not None:
            us -= self._tzinfo.utcoffset(self)._total_us()
        return us

    def __add__(self, other):
        if isinstance(other, timedelta):
            us = self._key() + other._total_us()
            if self._tzinfo is not None:
                us += self._tzinfo.utcoffset(self)._total_us()
            days, us = divmod(us, 86400 * 10 ** 6)
            if not 0 < days <= _MAX_ORDINAL:
                raise OverflowError("date value out of range")
            y, m, d = _ord2ymd(days)
            s, us = divmod(us, 10 ** 6)
            hh, s = divmod(s, 3600)
            mm, ss = divmod(s, 60)
            return type(self)(y, m, d, hh, mm, ss, us, self._tzinfo)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return self + (-other)
        if isinstance(other, datetime):
            if (self._tzinfo is None) != (other._tzinfo is None):
                raise TypeError("can't subtract offset-naive and offset-aware datetimes")
            return timedelta(microseconds=self._key() - other._key())
        return NotImplemented


_EPOCH_ORDINAL = _ymd2ord(1970, 1, 1)
datetime.min = datetime(1, 1, 1)
datetime.max = datetime(MAXYEAR, 12, 31, 23, 59, 59, 999999)
datetime.resolution = timedelta(microseconds=1)


def _parse(text, fmt, cls):
    """strptime for the directives `_format` writes."""
    fields = {"Y": 1900, "m": 1, "d": 1, "H": 0, "M": 0, "S": 0, "f": 0}
    pm = None
    i = j = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            if j >= len(text) or text[j] != c:
                raise ValueError(f"time data {text!r} does not match format {fmt!r}")
            i += 1
            j += 1
            continue
        code = fmt[i + 1] if i + 1 < len(fmt) else "%"
        i += 2
        if code in "YmdHMSfyIj":
            width = {"Y": 4, "f": 6}.get(code, 3 if code == "j" else 2)
            k = j
            while k < len(text) and k - j < width and text[k].isdigit():
                k += 1
            if k == j:
                raise ValueError(f"time data {text!r} does not match format {fmt!r}")
            value = int(text[j:k])
            if code == "f":
                value = int((text[j:k] + "000000")[:6])
            if code == "y":
                fields["Y"] = value + (2000 if value < 69 else 1900)
            elif code == "I":
                fields["H"] = value % 12
            else:
                fields[code] = value
            j = k
        elif code in "bBaA":
            names = {"b": _MONTHS, "B": _FULL_MONTHS, "a": _DAYS, "A": _FULL_DAYS}[code]
            for n, name in enumerate(names):
                if text[j:j + len(name)].lower() == name.lower():
                    if code in "bB":
                        fields["m"] = n + 1
                    j += len(name)
                    break
            else:
                raise ValueError(f"time data {text!r} does not match format {fmt!r}")
        elif code == "p":
            pm = text[j:j + 2].upper() == "PM"
            j += 2
        elif code == "%":
            j += 1
        else:
            raise ValueError(f"strptime directive '%{code}' is not in the lab yet")
    if j != len(text):
        raise ValueError(f"unconverted data remains: {text[j:]}")
    if pm:
        fields["H"] += 12
    return cls(fields["Y"], fields["m"], fields["d"], fields["H"], fields["M"], fields["S"],
               fields["f"])
