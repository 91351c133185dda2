/* Board hooks the Embench-IoT harness calls around the timed part; the simulated platform needs
 * none (the simulators count instructions and cycles themselves). */
void initialise_board(void);
void start_trigger(void);
void stop_trigger(void);

void initialise_board(void) {}
void start_trigger(void) {}
void stop_trigger(void) {}
