#!/usr/bin/env bash
echo "hello"
