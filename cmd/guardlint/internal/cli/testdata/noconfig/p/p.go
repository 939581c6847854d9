package p
