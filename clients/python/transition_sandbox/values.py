"""Reading one value of a pan script: a finite number (never a bool), a string, a list of strings, a
point. Each raises ScriptError with the key and what it must be."""
import math
import sys

from .errors import ScriptError


def number(value):
    """A JSON number a double holds: not a bool, not NaN or ±∞, no integer beyond the largest double."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) <= sys.float_info.max if isinstance(value, int) else math.isfinite(value)


def optional_number(obj, key):
    if key not in obj:
        return None
    if not number(obj[key]):
        raise ScriptError(f"'{key}' must be a number")
    return float(obj[key])


def optional_string(obj, key):
    if key not in obj:
        return None
    if not isinstance(obj[key], str):
        raise ScriptError(f"'{key}' must be a string")
    return obj[key]


def optional_strings(obj, key):
    if key not in obj:
        return None
    value = obj[key]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ScriptError(f"'{key}' must be an array of strings")
    return value


def point(value, key):
    if not (isinstance(value, list) and len(value) == 2 and all(number(v) for v in value)):
        raise ScriptError(f"'{key}' must be [x, y] in points")
    return float(value[0]), float(value[1])
