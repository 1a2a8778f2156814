#!/bin/sh
echo "session 4" # as in stops 3 and 4
