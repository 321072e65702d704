# datetime as training scripts use it: fixed dates and times, timedeltas and their
# arithmetic, reprs and strs, isoformat/fromisoformat, strftime/strptime for run names,
# weekdays, ISO calendars, timezones, comparisons and the range errors.
from datetime import date, datetime, time, timedelta, timezone

start = datetime(2024, 2, 28, 23, 15, 30, 250000)
print(start, repr(start), start.isoformat(), start.isoformat(sep=" ", timespec="seconds"))
later = start + timedelta(hours=1, minutes=50)
print(later, later - start, (later - start).total_seconds(), repr(later - start), start.date(), start.time())
print(date(2024, 2, 28) + timedelta(days=2), date(2023, 2, 28) + timedelta(days=1), date(2024, 3, 1) - date(2023, 3, 1))
print(timedelta(days=-1, seconds=5), repr(timedelta(weeks=1, milliseconds=1)), timedelta(hours=36) // timedelta(days=1),
      timedelta(minutes=90) / timedelta(hours=1), str(timedelta(microseconds=1500)), -timedelta(seconds=1), abs(timedelta(-2)))
print(timedelta(hours=2) * 1.5, timedelta(seconds=10) % timedelta(seconds=3), timedelta(0) == timedelta(), bool(timedelta()))
run = start.strftime("run-%Y%m%d-%H%M%S")
print(run, start.strftime("%a %A %b %B %d %j %I%p %y %f %%"), start.strftime("%c | %x | %X"), f"{start:%Y/%m/%d}")
parsed = datetime.strptime(run, "run-%Y%m%d-%H%M%S")
print(parsed, repr(parsed), datetime.strptime("03 Mar 2021 07:05 PM", "%d %b %Y %I:%M %p"))
print(datetime.fromisoformat("2024-01-02T03:04:05.123"), date.fromisoformat("2023-12-31"), datetime.fromisoformat("2024-01-02 10:00"))
aware = datetime(2024, 1, 1, 12, tzinfo=timezone.utc)
print(aware, repr(aware), aware.timestamp(), datetime.fromtimestamp(0, timezone.utc), aware.tzname(), aware.utcoffset())
plus2 = timezone(timedelta(hours=2))
print(aware.astimezone(plus2), plus2, datetime.fromisoformat("2024-05-06T07:08:09+02:00"), repr(timezone.utc))
print(date(2024, 1, 1).weekday(), date(2024, 1, 1).isoweekday(), date(2021, 1, 3).isocalendar(), date(2020, 12, 31).isocalendar())
print(date(2024, 3, 1).toordinal(), date.fromordinal(738946), date(2024, 1, 31).replace(month=2, day=29), time(9, 30), repr(time(9, 30, 0, 5)))
print(sorted([date(2024, 5, 1), date(2023, 1, 1)]), date(2024, 1, 1) < date(2024, 1, 2), {date(2024, 1, 1): "new year"}[date(2024, 1, 1)])
print(max(datetime(2024, 1, 1), datetime(2023, 6, 1)), date(2024, 1, 1) == datetime(2024, 1, 1), datetime.fromtimestamp(86400.5, timezone.utc))
for bad in [lambda: date(2023, 2, 29), lambda: datetime(2024, 1, 1, 24), lambda: date(2024, 13, 1),
            lambda: datetime.strptime("2024", "%Y-%m"), lambda: date.fromisoformat("2024/01/01"),
            lambda: datetime(2024, 1, 1) - aware, lambda: date(2024, 1, 1) < "x"]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
