from celery import shared_task

from accounts.devices import device_sightings_prune


@shared_task(name="accounts.device_sightings_prune")
def device_sightings_prune_task() -> int:
    """Forget the device sightings not renewed for 90 days (accounts.devices)."""
    return device_sightings_prune()
