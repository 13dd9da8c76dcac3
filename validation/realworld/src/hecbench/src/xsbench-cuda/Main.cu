#include "XSbench_header.h"

#ifdef MPI
#include<mpi.h>
#endif

int main( int argc, char* argv[] )
{
  // =====================================================================
  // Initialization & Command Line Read-In
  // =====================================================================
  int version = 19;
  int mype = 0;
  double omp_start, omp_end;
  int nprocs = 1;
  unsigned long long verification[2];

#ifdef MPI
  MPI_Status stat;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Comm_rank(MPI_COMM_WORLD, &mype);
#endif

  // Process CLI Fields -- store in "Inputs" structure
  Inputs in = read_CLI( argc, argv );

  // Set number of OpenMP Threads
  //omp_set_num_threads(in.nthreads); 

  // Print-out of Input Summary
  if( mype == 0 )
    print_inputs( in, nprocs, version );

  // =====================================================================
  // Prepare Nuclide Energy Grids, Unionized Energy Grid, & Material Data
  // This is not reflective of a real Monte Carlo simulation workload,
  // therefore, do not profile this region!
  // =====================================================================

  SimulationData SD;

  // If read from file mode is selected, skip initialization and load
  // all simulation data structures from file instead
  if( in.binary_mode == READ )
    SD = binary_read(in);
  else
    SD = grid_init_do_not_profile( in, mype );

  // If writing from file mode is selected, write all simulation data
  // structures to file
  if( in.binary_mode == WRITE && mype == 0 )
    binary_write(in, SD);


  // =====================================================================
  // Cross Section (XS) Parallel Lookup Simulation
  // This is the section that should be profiled, as it reflects a 
  // realistic continuous energy Monte Carlo macroscopic cross section
  // lookup kernel.
  // =====================================================================

  if( mype == 0 )
  {
    printf("\n");
    border_print();
    center_print("SIMULATION", 79);
    border_print();
  }

  // Start Simulation Timer
  omp_start = get_time();
  double kernel_time;

  // Run simulation
  if( in.simulation_method == EVENT_BASED )
  {
    if( in.kernel_id == 0 )
    {
      verification[0] = run_event_based_simulation(in, SD, mype, &kernel_time);
      verification[1] = run_event_based_simulation(in, SD, mype);
    }
    else
    {
      printf("Error: No kernel ID %d found!\n", in.kernel_id);
      exit(1);
    }
  }
  else
  {
    printf("History-based simulation not implemented in CUDA. Instead,\nuse the event-based method with \"-m event\" argument.\n");
    exit(1);
  }

  if( mype == 0)  
  {  
    printf("\n" );
    printf("Simulation complete.\n" );
  }

  // End Simulation Timer
  omp_end = get_time();

  // =====================================================================
  // Output Results & Finalize
  // =====================================================================

  // Print / Save Results and Exit
  int is_invalid_result = print_results( in, mype, omp_end-omp_start, nprocs,
                                         verification, kernel_time );

#ifdef MPI
  MPI_Finalize();
#endif

  return is_invalid_result;
}
