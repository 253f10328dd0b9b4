"""DemLoc missions."""
