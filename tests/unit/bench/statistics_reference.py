#!/usr/bin/env python3
# Reference values for tests/unit/bench/statistics_test.cpp, computed without gpurun's code: exact
# Mann-Whitney p-values by enumerating every arrangement or by an integer recursion, the normal
# approximation from its textbook formula, summaries with Python's statistics module.
# Run: python3 tests/unit/bench/statistics_reference.py
import itertools, math
from functools import lru_cache
from fractions import Fraction

def u_stat(a, b):
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)

def exact_bruteforce(a, b):
    pooled = sorted(a + b); n1 = len(a); n2 = len(b)
    u = u_stat(a, b); lo = min(u, n1 * n2 - u)
    count = total = 0
    for idx in itertools.combinations(range(n1 + n2), n1):
        s = set(idx)
        aa = [pooled[i] for i in idx]; bb = [pooled[i] for i in range(n1 + n2) if i not in s]
        uu = u_stat(aa, bb)
        total += 1
        if uu <= lo: count += 1
    return u, min(1.0, 2 * count / total)

@lru_cache(maxsize=None)
def c(u, m, n):
    if u < 0: return 0
    if m == 0 or n == 0: return 1 if u == 0 else 0
    return c(u - n, m - 1, n) + c(u, m, n - 1)

def exact_recursion(a, b):
    n1, n2 = len(a), len(b)
    u = u_stat(a, b); lo = int(min(u, n1 * n2 - u))
    below = sum(c(k, n1, n2) for k in range(lo + 1))
    total = math.comb(n1 + n2, n1)
    return u, float(min(Fraction(1), 2 * Fraction(below, total)))

def normal(a, b):
    n1, n2 = len(a), len(b); n = n1 + n2
    u = u_stat(a, b)
    counts = {}
    for x in a + b: counts[x] = counts.get(x, 0) + 1
    tie = sum(t**3 - t for t in counts.values())
    var = n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1)))
    if var <= 0: return u, 1.0
    z = (max(u, n1 * n2 - u) - n1 * n2 / 2 - 0.5) / math.sqrt(var)
    return u, min(1.0, max(0.0, math.erfc(z / math.sqrt(2))))

def lcg(seed, count, scale):
    # The same generator as the test's, so both sides see the same numbers.
    out = []; x = seed
    for _ in range(count):
        x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
        out.append((x >> 11) / 2**53 * scale)
    return out

print("3v3", exact_bruteforce([1,2,3],[4,5,6]))
print("5v6", exact_bruteforce([1.1,2.3,0.7,5.5,3.2],[4.1,6.2,7.7,3.9,8.8,5.0]))
a = lcg(1, 10, 1.0); b = [x + 0.3 for x in lcg(2, 12, 1.0)]
print("10v12 brute", exact_bruteforce(a, b), "recursion", exact_recursion(a, b))
a = lcg(3, 40, 1.0); b = [x + 0.2 for x in lcg(4, 50, 1.0)]
print("40v50 recursion", exact_recursion(a, b))
print("ties", normal([1,2,2,3,4],[2,3,3,5,6,6]))
print("identical", normal([5,5,5],[5,5,5]))
a = lcg(5, 120, 1.0); b = [x + 0.05 for x in lcg(6, 120, 1.0)]
print("120v120 normal", normal(a, b))

import statistics
v = [2, 4, 4, 4, 5, 5, 7, 9]
print("summary", statistics.mean(v), statistics.median(v), statistics.stdev(v),
      statistics.stdev(v) / statistics.mean(v),
      statistics.median([abs(x - statistics.median(v)) for x in v]))
w = [10, 10.1, 9.9, 10.05, 9.95, 10.2, 15]
m = statistics.median(w); mad = statistics.median([abs(x - m) for x in w])
print("outliers", m, mad, [i for i, x in enumerate(w) if 0.6745 * abs(x - m) / mad > 3.5],
      [round(0.6745 * abs(x - m) / mad, 3) for x in w])
