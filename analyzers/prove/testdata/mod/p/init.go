package p

import "errors"

// Calls in the initialiser of an if, a switch and a labelled for: their
// reverts hoist the initialiser out of the header.

var errClosed = errors.New("device closed")

type Device struct{ closed bool }

func (d *Device) check() error {
	if d.closed {
		return errClosed
	}
	return nil
}

func (d *Device) commit() {}

// Wait checks the device before it commits.
func (d *Device) Wait() error {
	if err := d.check(); err != nil {
		return err
	}
	d.commit()
	return nil
}

// State commits only on an open device.
func (d *Device) State() string {
	switch err := d.check(); {
	case err != nil:
		return "closed"
	}
	d.commit()
	return "open"
}

// Retire commits n times while the device is open.
func (d *Device) Retire(n int) {
outer:
	for err := d.check(); err == nil && n > 0; n-- {
		for range 2 {
			if n == 3 {
				n--
				continue outer
			}
		}
		d.commit()
	}
}
