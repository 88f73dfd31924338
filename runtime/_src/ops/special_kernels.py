"""Numpy kernels (float64) for the special functions of `tf.math` and
`tf.math.special` other than the Bessel functions (bessel_kernels.py): the
regularized incomplete gamma and beta functions, Hurwitz's zeta, the inverse
error functions, Dawson's integral, the exponential integral, the Fresnel
integrals and Spence's function. No scipy; the methods are the textbook ones:

- igamma P(a, x): the series e^-x x^a / Gamma(a+1) sum x^n / ((a+1)..(a+n))
  for x < a + 1; else 1 - Q with Q(a, x) from Legendre's continued fraction
  (modified Lentz), and the reverse for igammac;
- betainc I_x(a, b): the continued fraction of the incomplete beta function
  (Lentz), on I_{1-x}(b, a) past the mean (a + 1) / (a + b + 2);
- zeta(x, q): the first terms summed (until q + k >= 10) and the rest by the
  Euler-Maclaurin formula with Bernoulli numbers up to B_24;
- erfinv / ndtri: an initial guess refined by Newton steps on erf (near 0) or
  on log(erfc) (in the tails), so the tails keep their relative precision;
- dawsn: Gauss-Legendre quadrature of int_0^x exp(t^2 - x^2) dt below 10, the
  asymptotic series 1/(2x) (1 + 1/(2x^2) + 3/(4x^4) + ...) above;
- expint Ei(x): the series gamma + ln x + sum x^k / (k k!) below 40 and the
  asymptotic series e^x / x sum k! / x^k above (NaN for x < 0, as TF);
- fresnel: the power series below 1.5 and, above, the continued fraction of
  erfc at the complex point sqrt(pi)/2 (1 - i) x;
- spence(x) = Li2(1 - x), the dilogarithm's series after the reflections that
  bring its argument into [0, 1/2].

Special values (domains, poles, infinities) are TensorFlow 2.21's.
"""

import math

import numpy as np

__all__ = ["igamma", "igammac", "igamma_series", "igammac_fraction", "use_series", "betainc",
           "zeta", "ndtri", "erfinv", "erfcinv", "dawsn", "expint", "fresnel_cos",
           "fresnel_sin", "spence"]

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 5000
_EULER = 0.5772156649015329
_lgamma = np.frompyfunc(lambda v: math.lgamma(v) if v > 0 else math.inf, 1, 1)


def lgamma64(a):
    """log Gamma(a) for a > 0 (inf elsewhere), float64."""
    return np.asarray(_lgamma(np.asarray(a, np.float64)), np.float64)


def _lentz(a_fn, b_fn, b0, shape):
    """The continued fraction b0 + a1/(b1 + a2/(b2 + ...)) by modified Lentz,
    vectorized; a_fn(n), b_fn(n) give the n-th partial numerators and
    denominators (n >= 1) as arrays. Stops when every element has converged
    (to a relative step below 1e-15)."""
    f = np.where(b0 == 0, _TINY, b0) * np.ones(shape)
    c, d = f.copy(), np.zeros(shape)
    for n in range(1, _MAX_ITER):
        an, bn = a_fn(n), b_fn(n)
        d = bn + an * d
        d = 1.0 / np.where(d == 0, _TINY, d)
        c = bn + an / c
        c = np.where(c == 0, _TINY, c)
        delta = c * d
        f = f * delta
        if not np.any(np.abs(delta - 1.0) >= _EPS):       # NaN counts as done
            break
    return f


# --- incomplete gamma ----------------------------------------------------------

def _gamma_prefactor(a, x):
    """x^a e^-x / Gamma(a), on the log scale for large arguments."""
    return np.exp(a * np.log(x) - x - lgamma64(a))


def igamma_series(a, x):
    """P(a, x) by its series, for a > 0, x > 0 (best for x < a + 1)."""
    term = 1.0 / a
    total = term.copy()
    for n in range(1, _MAX_ITER):
        term = term * x / (a + n)
        total = total + term
        if not np.any(np.abs(term) > np.abs(total) * _EPS):
            break
    return total * _gamma_prefactor(a, x)


def igammac_fraction(a, x):
    """Q(a, x) by Legendre's continued fraction, for x > 0 (best for x >= a + 1):
    Q = prefactor / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...))."""
    fraction = _lentz(lambda n: -n * (n - a), lambda n: x + 2 * n + 1 - a, x + 1 - a,
                      np.shape(x + a))
    return _gamma_prefactor(a, x) / fraction


def use_series(a, x):
    """Where P is summed by its series (else Q by its fraction)."""
    return x < a + 1


def _igamma_pair(a, x):
    """(P, Q) for arrays a, x, each from the method that is accurate there."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    sa, sx = np.where(ok, a, 1.0), np.where(ok, x, 1.0)
    series = use_series(sa, sx)
    with np.errstate(all="ignore"):
        p = igamma_series(np.where(series, sa, 1.0), np.where(series, sx, 0.5))
        q = igammac_fraction(np.where(series, 1.0, sa), np.where(series, 2.5, sx))
    p = np.where(series, p, 1.0 - q)
    q = np.where(series, 1.0 - p, q)
    return a, x, ok, p, q


def igamma(a, x):
    """P(a, x), TF's special values: 0 at x == 0 (any a), NaN for x < 0 or
    a <= 0, 1 at x == inf, 0 at a == inf."""
    a, x, ok, p, _ = _igamma_pair(a, x)
    out = np.where(ok, p, np.nan)
    out = np.where(np.isposinf(x) & (a > 0) & ~np.isposinf(a), 1.0, out)
    out = np.where(np.isposinf(a) & (x > 0) & np.isfinite(x), 0.0, out)
    return np.where(x == 0, np.where(np.isnan(a), np.nan, 0.0), out)


def igammac(a, x):
    """Q(a, x) = 1 - P(a, x), TF's special values: NaN for a <= 0 or x < 0,
    1 at x == 0 (a > 0), 0 at x == inf, 1 at a == inf."""
    a, x, ok, _, q = _igamma_pair(a, x)
    out = np.where(ok, q, np.nan)
    out = np.where(np.isposinf(x) & (a > 0) & ~np.isposinf(a), 0.0, out)
    out = np.where(np.isposinf(a) & (x > 0) & np.isfinite(x), 1.0, out)
    return np.where((x == 0) & (a > 0), 1.0, out)


# --- incomplete beta -----------------------------------------------------------

def _betainc_fraction(a, b, x):
    """I_x(a, b) by the continued fraction, for x below the mean."""
    def numerator(n):
        m = n // 2
        if n % 2 == 0:
            return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
    fraction = _lentz(numerator, lambda n: np.ones_like(x), np.ones_like(x), np.shape(x))
    log_front = a * np.log(x) + b * np.log1p(-x) - (lgamma64(a) + lgamma64(b)
                                                     - lgamma64(a + b))
    return np.exp(log_front) / (a * fraction)


def betainc(a, b, x):
    """I_x(a, b); NaN for a <= 0, b <= 0, either infinite, or x outside [0, 1]."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    ok = (a > 0) & (b > 0) & np.isfinite(a) & np.isfinite(b) & (x > 0) & (x < 1)
    a1, b1, x1 = np.where(ok, a, 1.0), np.where(ok, b, 1.0), np.where(ok, x, 0.5)
    flip = x1 > (a1 + 1) / (a1 + b1 + 2)
    with np.errstate(all="ignore"):
        out = _betainc_fraction(np.where(flip, b1, a1), np.where(flip, a1, b1),
                                np.where(flip, 1 - x1, x1))
    out = np.where(flip, 1.0 - out, out)
    edge = (a > 0) & (b > 0) & np.isfinite(a) & np.isfinite(b)
    out = np.where(edge & (x == 0), 0.0, np.where(edge & (x == 1), 1.0, out))
    return np.where(ok | (edge & ((x == 0) | (x == 1))), out, np.nan)


# --- Hurwitz zeta --------------------------------------------------------------

# B_2j / (2j)! for j = 1..12
_BERNOULLI_OVER_FACT = [1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160,
                        -691 / 1307674368000, 1 / 74724249600,
                        -3617 / 10670622842880000, 43867 / 5109094217170944000,
                        -174611 / 802857662698291200000,
                        77683 / 14101100039391805440000,
                        -236364091 / 1693824136731743669452800000]
_ZETA_SHIFT = 10.0
_ZETA_MAX_TERMS = 100000


def _zeta_finite(x, q):
    """sum_{k>=0} (q + k)^-x for x > 1 and q + k != 0."""
    total = np.zeros_like(q)
    start = float(np.min(q, initial=_ZETA_SHIFT))
    steps = int(min(max(_ZETA_SHIFT - start, 0) + 1, _ZETA_MAX_TERMS))
    for _ in range(steps):
        low = q < _ZETA_SHIFT
        if not low.any():
            break
        total = total + np.where(low, np.where(low, q, 1.0) ** -x, 0.0)
        q = np.where(low, q + 1, q)
    tail = q ** (1 - x) / (x - 1) + q ** -x / 2
    rising = x.copy()                      # x (x+1) ... (x + 2j - 2)
    power = q ** (-x - 1)
    for j, coefficient in enumerate(_BERNOULLI_OVER_FACT, 1):
        tail = tail + coefficient * rising * power
        rising = rising * (x + 2 * j - 1) * (x + 2 * j)
        power = power / (q * q)
    return np.where(q < _ZETA_SHIFT, np.nan, total + tail)


def zeta(x, q):
    """Hurwitz's zeta: inf at x == 1; NaN for x < 1 and for q <= 0 with x not
    an integer; at a pole (q a non-positive integer) inf for an even x and
    NaN for an odd one (TF's kernel); 0 at x or q == inf."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    integer_x = x == np.floor(x)
    pole = (q <= 0) & (q == np.floor(q))
    bad = (x < 1) | ((q <= 0) & ~integer_x)
    ok = ~pole & ~bad & (x > 1) & np.isfinite(x) & np.isfinite(q)
    with np.errstate(all="ignore"):
        out = _zeta_finite(np.where(ok, x, 2.0), np.where(ok, q, 1.0))
        even = integer_x & (np.fmod(np.where(np.isfinite(x), x, 1.0), 2.0) == 0)
    out = np.where(ok, out, np.nan)
    out = np.where(~bad & (np.isposinf(x) & (q > 1) | np.isposinf(q) & (x > 1)), 0.0, out)
    out = np.where(np.isposinf(x) & (q == 1), 1.0, out)
    out = np.where(pole & ~bad & even, np.inf, out)
    out = np.where(x == 1, np.inf, out)
    return np.where(np.isnan(x) | np.isnan(q), np.nan, out)


# --- inverse error functions ---------------------------------------------------

_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)
_TWO_OVER_ROOT_PI = 2.0 / math.sqrt(math.pi)


def _float(values):
    return np.asarray(values, np.float64)


def _solve_erf(e):
    """x >= 0 with erf(x) = e, for 0 <= e <= 0.5 (Newton from e sqrt(pi) / 2)."""
    x = e / _TWO_OVER_ROOT_PI
    for _ in range(8):
        x = x - (_float(_erf(x)) - e) / (_TWO_OVER_ROOT_PI * np.exp(-x * x))
    return x


def _solve_erfc(c):
    """x >= 0 with erfc(x) = c, for 0 < c <= 0.5: Newton on log(erfc), whose
    relative precision holds far into the tail."""
    x = np.sqrt(-np.log(c))
    x = np.sqrt(np.maximum(-np.log(c * math.sqrt(math.pi) * np.maximum(x, 0.5)), 0.1))
    target = np.log(c)
    for _ in range(12):
        value = _float(_erfc(x))
        slope = -_TWO_OVER_ROOT_PI * np.exp(-x * x) / value
        x = x - (np.log(value) - target) / slope
    return x


def _inverse_erf(ae, ac):
    """The x >= 0 with erf(x) = ae and erfc(x) = ac (both given: ac = 1 - ae
    computed exactly by the caller); inf at ac == 0."""
    with np.errstate(all="ignore"):
        near = ae <= 0.5
        x = np.where(near, _solve_erf(np.where(near, ae, 0.0)),
                     _solve_erfc(np.where(near, 0.5, np.maximum(ac, 1e-320))))
        return np.where(ac == 0, np.inf, x)


def erfinv(y):
    """The inverse of erf on [-1, 1] (+-inf at +-1, NaN outside)."""
    y = _float(y)
    inside = np.abs(y) <= 1
    ay = np.where(inside, np.abs(y), 0.0)
    out = np.sign(y) * _inverse_erf(ay, 1.0 - ay)
    return np.where(inside, out, np.nan)


def erfcinv(c):
    """The inverse of erfc on [0, 2] (inf at 0, -inf at 2, NaN outside)."""
    c = _float(c)
    inside = (c >= 0) & (c <= 2)
    cc = np.where(inside, c, 1.0)
    upper = cc > 1                      # erfcinv(c) = -erfcinv(2 - c)
    tail = np.where(upper, 2.0 - cc, cc)
    out = np.where(upper, -1.0, 1.0) * _inverse_erf(1.0 - tail, tail)
    return np.where(inside, np.where(c == 1, -0.0, out), np.nan)


def ndtri(p):
    """The inverse of the standard normal CDF on [0, 1]: -sqrt(2) erfcinv(2p)."""
    p = _float(p)
    inside = (p >= 0) & (p <= 1)
    out = -math.sqrt(2.0) * erfcinv(np.where(inside, 2.0 * p, 1.0))
    return np.where(inside, out, np.nan)


# --- Dawson, Ei, Fresnel, Spence -----------------------------------------------

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(64)
_DAWSN_SPLIT = 10.0


def _dawsn_quadrature(x):
    """int_0^x exp(-u (2x - u)) du over u in [0, min(x, 40 / x)] (the rest is
    below e^-40), 64-point Gauss-Legendre."""
    length = np.minimum(x, 40.0 / x)
    u = (_GL_NODES.reshape((-1,) + (1,) * x.ndim) + 1.0) / 2.0 * length
    values = np.exp(-u * (2.0 * x - u))
    return np.tensordot(_GL_WEIGHTS, values, axes=1) * length / 2.0


def _dawsn_asymptotic(x):
    term, total = 1.0 / (2.0 * x), np.zeros_like(x)
    for k in range(30):
        total = total + term
        term = term * (2 * k + 1) / (2.0 * x * x)
    return total


def dawsn(x):
    """Dawson's integral exp(-x^2) int_0^x exp(t^2) dt: odd, 0 at +-inf."""
    x = _float(x)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        small = ax < _DAWSN_SPLIT
        out = np.where(small, _dawsn_quadrature(np.where(small & (ax > 0), ax, 1.0)),
                       _dawsn_asymptotic(np.where(small, 20.0, ax)))
    out = np.where(np.isinf(x) | (x == 0), 0.0, out)
    return np.sign(x) * out


_EI_SPLIT = 40.0


def _ei_series(x):
    term, total = x.copy(), np.zeros_like(x)
    for k in range(1, 200):
        total = total + term / k
        term = term * x / (k + 1)
    return _EULER + np.log(x) + total


def _ei_asymptotic(x):
    term, total = np.ones_like(x), np.zeros_like(x)
    for k in range(1, 40):
        total = total + term
        term = term * k / x
    return np.exp(x) / x * total


def expint(x):
    """Ei(x) = -PV int_-x^inf e^-t / t dt for x > 0 (-inf at 0, NaN for x < 0
    and at +-inf, as TF)."""
    x = _float(x)
    with np.errstate(all="ignore"):
        small = x < _EI_SPLIT
        out = np.where(small, _ei_series(np.where(small & (x > 0), x, 1.0)),
                       _ei_asymptotic(np.where(small, 50.0, x)))
    out = np.where(x == 0, -np.inf, out)
    return np.where((x < 0) | np.isinf(x), np.nan, out)


_FRESNEL_SPLIT = 1.5


def _fresnel_series(x):
    """(C(x), S(x)) by their power series (|x| < 1.5)."""
    z = np.pi / 2.0 * x * x
    c, s = np.zeros_like(x), np.zeros_like(x)
    term = x.copy()                            # x z^n / n!
    for n in range(40):
        if n % 2 == 0:
            c = c + (-1.0) ** (n // 2) * term / (2 * n + 1)
        else:
            s = s + (-1.0) ** (n // 2) * term / (2 * n + 1)
        term = term * z / (n + 1)
    return c, s


def _fresnel_fraction(x):
    """(C(x), S(x)) for x >= 1.5: C + iS = (1 + i)/2 (1 - erfc(w)) with
    w = sqrt(pi)/2 (1 - i) x, and erfc(w) = 2w e^(-w^2) / sqrt(pi) /
    (2w^2 + 1 - 1*2 / (2w^2 + 5 - 3*4 / (2w^2 + 9 - ...)))."""
    two_w2 = -1j * np.pi * x * x
    fraction = _lentz(lambda n: -(2.0 * n - 1) * (2.0 * n) * np.ones_like(two_w2),
                      lambda n: two_w2 + 4 * n + 1, two_w2 + 1, np.shape(x))
    w = math.sqrt(math.pi) / 2.0 * (1 - 1j) * x
    erfc_w = 2.0 * w * np.exp(-w * w) / math.sqrt(math.pi) / fraction
    cs = (1 + 1j) / 2.0 * (1.0 - erfc_w)
    return cs.real, cs.imag


def _fresnel(x):
    x = _float(x)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        small = ax < _FRESNEL_SPLIT
        huge = ax > 1e9
        cs_small = _fresnel_series(np.where(small, ax, 0.0))
        cs_large = _fresnel_fraction(np.where(small | huge | np.isnan(ax), 2.0, ax))
        c = np.where(small, cs_small[0], np.where(huge, 0.5, cs_large[0]))
        s = np.where(small, cs_small[1], np.where(huge, 0.5, cs_large[1]))
    sign = np.sign(x)
    return sign * c, sign * s


def fresnel_cos(x):
    """C(x) = int_0^x cos(pi t^2 / 2) dt: odd, +-1/2 at +-inf."""
    return _fresnel(x)[0]


def fresnel_sin(x):
    """S(x) = int_0^x sin(pi t^2 / 2) dt: odd, +-1/2 at +-inf."""
    return _fresnel(x)[1]


def _li2_half(z):
    """Li2(z) = sum z^k / k^2 for 0 <= z <= 1/2 (term 60 below 1e-20)."""
    term, total = z.copy(), np.zeros_like(z)
    for k in range(1, 64):
        total = total + term / (k * k)
        term = term * z
    return total


def _li2_unit(z):
    """Li2(z) for 0 <= z <= 1 (Euler's reflection above 1/2)."""
    low = z <= 0.5
    direct = _li2_half(np.where(low, z, 0.0))
    w = np.where(low, 0.5, 1.0 - z)
    reflected = np.pi ** 2 / 6 - np.log(1.0 - w) * np.log(np.where(w > 0, w, 1.0)) - \
        _li2_half(w)
    return np.where(low, direct, np.where(z == 1, np.pi ** 2 / 6, reflected))


def spence(x):
    """spence(x) = int_1^x log(t) / (1 - t) dt = Li2(1 - x) for x >= 0 (NaN
    for x < 0 and at inf, as TF)."""
    x = _float(x)
    with np.errstate(all="ignore"):
        z = 1.0 - np.where(x >= 0, x, 0.0)           # Li2(z), z <= 1
        unit = z >= 0
        # -1 <= z < 0 (0 < x - 1 <= 1): Li2(z) = -Li2(z / (z - 1)) - log(1 - z)^2 / 2
        mid = (z < 0) & (z >= -1)
        w = np.where(mid, z / (z - 1.0), 0.0)
        mid_value = -_li2_unit(w) - 0.5 * np.log1p(-np.where(mid, z, 0.0)) ** 2
        # z < -1: Li2(z) = -pi^2/6 - log(-z)^2 / 2 - Li2(1/z), and 1/z in (-1, 0)
        big = z < -1
        v = np.where(big, 1.0 / z, -0.5)
        li2_v = -_li2_unit(v / (v - 1.0)) - 0.5 * np.log1p(-v) ** 2
        big_value = -np.pi ** 2 / 6 - 0.5 * np.log(np.where(big, -z, 2.0)) ** 2 - li2_v
        out = np.where(unit, _li2_unit(np.where(unit, z, 0.0)),
                       np.where(mid, mid_value, big_value))
    return np.where((x < 0) | np.isinf(x) | np.isnan(x), np.nan, out)
