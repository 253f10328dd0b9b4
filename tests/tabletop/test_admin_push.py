"""A table changed in the admin reaches the connected phones (docs/architecture.md "The live path"): the
fan-out renders a command's committed row over the table it last rendered, so an admin edit of
a column no command writes (the title) must make it read the table again."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tabletop import services
from tabletop.rules import Command
from tests.tabletop.test_fanout_rows import frame_at, phone, read_render


def post_change_form(client, table, **changes) -> None:
    """The admin's change form of ``table`` sent back as it is shown, with ``changes``."""
    url = reverse("admin:tabletop_table_change", args=[table.pk])
    page = client.get(url)
    data = {}
    form = page.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        data[name] = "" if value is None else value
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        for name, value in formset.management_form.initial.items():
            data[f"{formset.prefix}-{name}"] = value
        for sub in formset.forms:
            for name in sub.fields:
                value = sub[name].value()
                data[sub.add_prefix(name)] = "" if value is None else value
    data.update(changes)
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.context["adminform"].form.errors


@pytest.mark.django_db(transaction=True)
async def test_a_title_changed_in_the_admin_shows_in_the_next_frame(make_table, admin_client):
    table, seats = await sync_to_async(make_table)("counter", players=2)
    comm = await phone(table, seats[1])
    await sync_to_async(post_change_form)(admin_client, table, title="Friday night")
    await sync_to_async(services.run_command)(table, seats[0], Command("counter.add", {"amount": 1}))
    frame = await frame_at(comm, table.version)
    assert "Friday night" in await sync_to_async(read_render)(table.pk, seats[1])
    assert "Friday night" in frame
    await comm.disconnect()
