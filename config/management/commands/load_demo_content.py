"""``manage.py load_demo_content``: every app's demo content, composed in one command.

Each app owns its loader (``guilds.demo.load_demo_content``: the Rise of Guilds catalog, its
codes and the city, DemLoc rulebook 4; ``missions.demo.load_demo_missions``: one printed
mission of every type). This project-level command (the ``config`` app) calls them in
dependency order, so no app imports another app only to load demo data.
"""

from django.core.management.base import BaseCommand

from guilds.demo import load_demo_content, unused_codes
from missions.demo import load_demo_missions


class Command(BaseCommand):
    help = "Load every app's demo content (idempotent) and print each set's unused codes."

    def handle(self, *args, **options):
        sets = load_demo_content()
        load_demo_missions()
        self.stdout.write("DemLoc demo content (Rise of Guilds). Unused codes:")
        for card_set in sets:
            codes, accounts = unused_codes(card_set)
            self.stdout.write(f"  {card_set.name}")
            self.stdout.write(f"    set codes (City Gate): {', '.join(codes)}")
            if accounts:
                self.stdout.write(f"    player account cards (new Guild): {', '.join(accounts)}")
