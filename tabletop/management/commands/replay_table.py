"""``manage.py replay_table ID``: rebuild a table from its events and compare (docs/architecture.md)."""

from django.core.management.base import BaseCommand, CommandError

from tabletop.models import Table
from tabletop.services import table_replay


class Command(BaseCommand):
    help = "Rebuild a table from its event log and check it against the stored projection."

    def add_arguments(self, parser):
        parser.add_argument("table", help="table id or join code")

    def handle(self, *args, **options):
        ref = options["table"]
        table = Table.objects.filter(pk=int(ref)).first() if ref.isdigit() else None
        table = table or Table.objects.filter(code=ref.upper()).first()
        if table is None:
            raise CommandError(f"No table {ref!r}.")
        report = table_replay(table)
        self.stdout.write(
            f"table {table.pk} ({table.code}, {table.ruleset}): {report['events']} "
            f"events, stored version {report['version']}"
        )
        if report["state_matches"] and report["meta_matches"]:
            self.stdout.write(self.style.SUCCESS("OK: the replay equals the stored projection."))
        else:
            raise CommandError(
                "MISMATCH: the replay differs from the stored projection "
                f"(state {report['state_matches']}, undo meta {report['meta_matches']})."
            )
