"""``manage.py load_demo_content``: the Rise of Guilds demo catalog and its codes (section 4)."""

from django.core.management.base import BaseCommand

from guilds.demo import load_demo_content, unused_codes
from missions.demo import load_demo_missions


class Command(BaseCommand):
    help = "Load the demo Rise of Guilds cards (idempotent) and print each set's unused codes."

    def handle(self, *args, **options):
        sets = load_demo_content()
        load_demo_missions()  # the demo missions of issue 6, one of every type
        self.stdout.write("DemLoc demo content (Rise of Guilds). Unused codes:")
        for card_set in sets:
            codes, accounts = unused_codes(card_set)
            self.stdout.write(f"  {card_set.name}")
            self.stdout.write(f"    set codes (City Gate): {', '.join(codes)}")
            if accounts:
                self.stdout.write(f"    player account cards (new Guild): {', '.join(accounts)}")
