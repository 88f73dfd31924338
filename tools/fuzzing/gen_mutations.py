"""--mutations: mutating calls inside branches and loops."""

from .gen_default import MOD
from .gen_modes import _ModeGenerator


class MutationGenerator(_ModeGenerator):
    """--mutations: mutating calls inside branches and loops: append, pop,
    extend, insert, del l[i], del d[k], d.update, d.setdefault, d.pop, slice
    assignment, next(it), a bound method (`emit = out.append`)."""

    def special_atom(self, names):
        return self.rng.choice(["len(l) % 97", "len(d)", "len(out) % 97", "(l[0] if l else 5)",
                                "(l[-1] if l else 6)", "d.get('w', 7)", "d['k']",
                                f"sum(l) % {MOD}"])

    def special(self, names, depth, in_loop):
        e = lambda: self.expr(names)
        return self.rng.choice([
            lambda: [f"l.append({e()} % {MOD})"],
            lambda: [f"emit({e()} % {MOD})"],
            lambda: [f"l.extend([{e()} % {MOD}, {self.rng.randint(0, 9)}])"],
            lambda: [f"l.insert({self.rng.choice([0, 1, -1])}, {e()} % {MOD})"],
            lambda: ["if l:", f"    {self.rng.choice(self.SCALARS)} = "
                              f"l.pop({self.rng.choice(['', '0', '-1'])}) % {MOD}"],
            lambda: ["if len(l) > 1:", f"    del l[{self.rng.choice([0, 1, -1])}]"],
            lambda: [f"d['w'] = {e()} % {MOD}"],
            lambda: [f"d.update({{'w': {e()} % {MOD}}})"],
            lambda: [f"d.update(k={e()} % {MOD})"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = d.setdefault('w', {e()} % {MOD})"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = d.pop('w', {e()}) % {MOD}"],
            lambda: ["if 'w' in d:", "    del d['w']"],
            lambda: [f"l[0:1] = [{e()} % {MOD}, {self.rng.randint(0, 9)}]"],
            lambda: ["l[:] = l[-4:]"],
            lambda: [f"{self.rng.choice(self.SCALARS)} = next(it, {e()}) % {MOD}"],
            lambda: [f"print('m', len(l), {self.rng.choice(self.SCALARS)})"],
        ])()

    def setup(self):
        return ["l = [a % 97, b % 97]", "d = {'k': a % 97}", "out = []",
                "emit = out.append", "it = iter([3, a % 97, b % 97, 7])"]

    def readers(self):
        return ["len(l)", f"sum(l) % {MOD}", "len(out)", f"sum(out) % {MOD}", "len(d)",
                f"sum(d.values()) % {MOD}", "(l[0] if l else 5)", "next(it, 9)"]
