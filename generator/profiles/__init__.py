"""The print profiles (--print): one module per profile, each an entry of the registry in
registry.py; print_profile.py says what a profile holds.

Plain data on the base layer: options name a profile, layout/ lays out its sheets and render/
draws its colours, boxes and marks by it, so it imports nothing of the kit's but base modules
and no drawing library.  Nothing is imported here, so that a profile module importing
print_profile.py does not load the registry (which imports every profile module) half-way.
"""
