"""House rules the adapter tests share."""

# Two ways to get stuck (the adapters must say so, not return nothing): `roll`'s chance
# refuses every outcome, and a player whose one coin is spent has no action in round 2.
NO_SEVEN = """
game no_seven { title "No seven"; players 2 }
resource coins { start 1 }
resource vp { start 0; scored true }
action roll main { pay 1 coins; choose r in dice(1) by chance { require r > 6 else "no die shows 7"; gain r vp } }
action work main { pay 1 coins; gain 1 vp }
flow { rounds 2 { step play: turns seat once { main roll, work } } }
"""
