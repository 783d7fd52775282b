#!/bin/sh
# A bot that never says anything, not even ready.
exec sleep 600
