"""Push: inventories, the config trees and their diff, netmiko connections, the fan-out."""
