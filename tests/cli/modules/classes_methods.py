"""Classes whose methods use control flow, plus a subclass and properties."""


class Accumulator:
    """Sums values, ignoring the ones outside [low, high]."""

    unit = "points"  # class attribute, kept verbatim

    def __init__(self, low=0, high=100):
        self.low = low
        self.high = high
        self.total = 0
        self.rejected = 0

    def add(self, value):
        if self.low <= value <= self.high:
            self.total += value
        else:
            self.rejected += 1
        return self.total

    def add_all(self, values):
        for v in values:
            self.add(v)
        return self.total

    @property
    def summary(self):
        return f"{self.total} {self.unit}, {self.rejected} rejected"

    @staticmethod
    def clamp(value, low, high):
        if value < low:
            return low
        if value > high:
            return high
        return value

    @classmethod
    def from_list(cls, values, high=100):
        acc = cls(0, high)
        acc.add_all(values)
        return acc


class Polynomial:
    def __init__(self, coefficients):
        # coefficients[i] multiplies x ** i
        self.coefficients = list(coefficients)

    def __call__(self, x):
        result = 0
        for c in reversed(self.coefficients):
            result = result * x + c
        return result

    def degree(self):
        d = len(self.coefficients) - 1
        while d > 0 and self.coefficients[d] == 0:
            d -= 1
        return d

    def derivative(self):
        return Polynomial([i * c for i, c in enumerate(self.coefficients)][1:] or [0])

    def __repr__(self):
        return f"Polynomial({self.coefficients})"


class BoundedAccumulator(Accumulator):
    """An Accumulator that stops accepting values once full."""

    def __init__(self, capacity):
        super().__init__(0, 1000)
        self.capacity = capacity

    def add(self, value):
        if self.total + value > self.capacity:
            self.rejected += 1
            return self.total
        return super().add(value)
