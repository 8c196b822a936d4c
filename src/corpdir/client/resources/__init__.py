"""The operations of the interface, one module per resource (as anthropic-sdk-python's
``resources/``); :class:`corpdir.client.DirectoryClient` combines them."""

from corpdir.client.resources.calls import CallsResource
from corpdir.client.resources.contacts import ContactsResource
from corpdir.client.resources.divisions import DivisionsResource
from corpdir.client.resources.folders import FoldersResource
from corpdir.client.resources.locations import LocationsResource
from corpdir.client.resources.numbers import NumbersResource
from corpdir.client.resources.users import UsersResource

__all__ = [
    "CallsResource", "ContactsResource", "DivisionsResource", "FoldersResource", "LocationsResource",
    "NumbersResource", "UsersResource",
]
