"""How long the demo tenant generator takes (not a timed test: it prints figures).

    python3 bench/demo_bench.py            # size 500 and 100,000 users (+100,000 contacts)
    python3 bench/demo_bench.py 20000      # other sizes

The target is 100,000 users and 100,000 contacts well under two minutes on a 2-core
machine (aim: under 40 s), so a load-test tenant is quick to make.
"""

from __future__ import annotations

import sys
import time

from corpdir.server.demo import default_contacts, generate_tenant


def bench(size: int, contacts: int) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    tenant = generate_tenant(size=size, seed=1, contacts=contacts)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    # CPU time too: on a shared machine the wall clock also measures the neighbours.
    print(f"size {size:>7,} contacts {contacts:>7,}: {elapsed:6.2f} s wall, {cpu:6.2f} s CPU  "
          f"({len(tenant.divisions):,} divisions, {len(tenant.profiles):,} profiles, {len(tenant.photos):,} photos, "
          f"{len(tenant.cards):,} cards, {len(tenant.incoming_calls) + len(tenant.outgoing_calls):,} calls)")


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [500, 100_000]
    for size in sizes:
        bench(size, default_contacts(size))


if __name__ == "__main__":
    main(sys.argv[1:])
